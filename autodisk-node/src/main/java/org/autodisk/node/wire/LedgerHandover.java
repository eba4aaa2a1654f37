package org.autodisk.node.wire;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.autodisk.core.protocol.BodyReader;
import org.autodisk.core.protocol.BodyWriter;
import org.autodisk.core.protocol.ProtocolException;
import org.autodisk.core.protocol.Status;

/**
 * The body of a LEDGER_HANDOVER: a range's former owner tells the new owner that it wrote its ledger up to an entry,
 * every entry acknowledged, and writes no more to it; with the last entries it acknowledged, so that the new owner,
 * which caught up to just before them, applies them without reading them back from a log node.
 *
 * @param ledgerId         the ledger
 * @param lastEntry        its last entry (0: none)
 * @param stoppedAtMicros  when the writer stopped taking writes of the range, by its wall clock (µs since the epoch):
 *                         the new owner measures the pause of the range's writes from there
 * @param writer           the data node that wrote it
 * @param tail             the ledger's last entries, consecutive and ending at {@code lastEntry} (as records, id =
 *                         LSN), or none
 */
public record LedgerHandover(long ledgerId, long lastEntry, long stoppedAtMicros, String writer, List<LogRecord> tail) {

    private static final int MAX_WRITER = 255;
    /** The smallest encoded record. */
    private static final int MIN_RECORD = 31;

    /** Copies the tail. */
    public LedgerHandover {
        tail = List.copyOf(tail);
    }

    /**
     * A handover without entries.
     *
     * @param ledgerId        the ledger
     * @param lastEntry       its last entry
     * @param stoppedAtMicros when the writer stopped taking writes
     * @param writer          the data node that wrote it
     */
    public LedgerHandover(long ledgerId, long lastEntry, long stoppedAtMicros, String writer) {
        this(ledgerId, lastEntry, stoppedAtMicros, writer, List.of());
    }

    /**
     * Encodes the handover.
     *
     * @return ledger id, last entry and stop time (8 bytes each), the writer's id (a length byte and UTF-8), the number
     *         of tail entries (4 bytes) and the entries with their CRCs
     * @throws IllegalArgumentException if the writer's id is empty or longer than 255 bytes
     */
    public byte[] encode() {
        byte[] w = writer.getBytes(StandardCharsets.UTF_8);
        if (w.length == 0 || w.length > MAX_WRITER) {
            throw new IllegalArgumentException("a writer's id takes 1 to " + MAX_WRITER + " bytes: " + writer);
        }
        BodyWriter out = new BodyWriter(29 + w.length + LedgerWire.encodedSize(tail)).i64(ledgerId).i64(lastEntry)
                .i64(stoppedAtMicros).u8(w.length).raw(w).i32(tail.size());
        tail.forEach(r -> r.writeTo(out));
        return out.toBytes();
    }

    /**
     * Decodes a handover.
     *
     * @param body the frame body
     * @return the handover
     * @throws ProtocolException MALFORMED if a field is missing or out of range, the writer's id is empty or too long,
     *                           or the tail is not consecutive, fails its CRC or does not end at the last entry
     */
    public static LedgerHandover decode(byte[] body) {
        BodyReader r = new BodyReader(body);
        long ledger = r.i64("ledger id");
        long last = r.i64("last entry");
        long stoppedAt = r.i64("stop time");
        if (ledger <= 0 || last < 0) {
            throw new ProtocolException(Status.MALFORMED, "a LEDGER_HANDOVER names ledger " + ledger
                    + " and last entry " + last + "; both must be positive (the entry may be 0)");
        }
        int length = r.u8("writer's id length");
        if (length == 0) {
            throw new ProtocolException(Status.MALFORMED, "a LEDGER_HANDOVER needs the writer's id (1 to "
                    + MAX_WRITER + " bytes)");
        }
        String writer = new String(r.raw(length, "writer's id"), StandardCharsets.UTF_8);
        int n = r.i32("tail entry count");
        if (n < 0 || n > r.remaining() / MIN_RECORD) {
            throw new ProtocolException(Status.MALFORMED, "tail entry count " + n + " does not fit the handover");
        }
        List<LogRecord> tail = n == 0 ? List.of() : LedgerWire.records(body, body.length - r.remaining(), n);
        if (n == 0) {
            r.expectEnd("LEDGER_HANDOVER");
        } else if (tail.get(n - 1).lsn() != last) {
            throw new ProtocolException(Status.MALFORMED, "a LEDGER_HANDOVER's tail ends at entry "
                    + tail.get(n - 1).lsn() + ", not at its last entry " + last);
        }
        return new LedgerHandover(ledger, last, stoppedAt, writer, tail);
    }
}
