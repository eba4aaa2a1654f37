package org.autodisk.node.wire;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.autodisk.core.protocol.ProtocolException;
import org.autodisk.core.protocol.Status;

/**
 * The body of a LEDGER_HANDOVER: a range's former owner tells the new owner that it wrote its ledger up to an entry,
 * every entry acknowledged, and writes no more to it.
 *
 * @param ledgerId         the ledger
 * @param lastEntry        its last entry (0: none)
 * @param stoppedAtMicros  when the writer stopped taking writes of the range, by its wall clock (µs since the epoch):
 *                         the new owner measures the pause of the range's writes from there
 * @param writer           the data node that wrote it
 */
public record LedgerHandover(long ledgerId, long lastEntry, long stoppedAtMicros, String writer) {

    private static final int FIXED = 3 * Long.BYTES;
    private static final int MAX_WRITER = 255;

    /**
     * Encodes the handover.
     *
     * @return 24 bytes and the writer's id in UTF-8
     */
    public byte[] encode() {
        byte[] w = writer.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(FIXED + w.length).putLong(ledgerId).putLong(lastEntry).putLong(stoppedAtMicros)
                .put(w).array();
    }

    /**
     * Decodes a handover.
     *
     * @param body the frame body
     * @return the handover
     * @throws ProtocolException MALFORMED if the body is too short or too long, or an entry is negative
     */
    public static LedgerHandover decode(byte[] body) {
        if (body.length <= FIXED || body.length > FIXED + MAX_WRITER) {
            throw new ProtocolException(Status.MALFORMED, "a LEDGER_HANDOVER body is " + FIXED + " bytes (ledger id, "
                    + "last entry, stop time) and the writer's id (1 to " + MAX_WRITER + " bytes), got " + body.length);
        }
        ByteBuffer b = ByteBuffer.wrap(body);
        long ledger = b.getLong();
        long last = b.getLong();
        long stoppedAt = b.getLong();
        if (ledger <= 0 || last < 0) {
            throw new ProtocolException(Status.MALFORMED, "a LEDGER_HANDOVER names ledger " + ledger
                    + " and last entry " + last + "; both must be positive (the entry may be 0)");
        }
        byte[] w = new byte[b.remaining()];
        b.get(w);
        return new LedgerHandover(ledger, last, stoppedAt, new String(w, StandardCharsets.UTF_8));
    }
}
