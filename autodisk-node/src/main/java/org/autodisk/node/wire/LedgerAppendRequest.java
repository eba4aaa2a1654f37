package org.autodisk.node.wire;

import java.util.List;
import org.autodisk.core.protocol.BodyReader;
import org.autodisk.core.protocol.BodyWriter;
import org.autodisk.core.protocol.ProtocolException;
import org.autodisk.core.protocol.Status;

/**
 * LEDGER_APPEND body: consecutive entries of one ledger for a log node of its ensemble. Each entry travels as a
 * {@link LogRecord} whose LSN is its entry id, with its CRC.
 *
 * @param ledgerId      the ledger (&ge; 1)
 * @param fragmentStart the first entry of the fragment the log node holds them in (&ge; 1)
 * @param recovery      whether a recovery writes them back (a fenced ledger takes them)
 * @param lac           the writer's last acknowledged entry (&ge; 0)
 * @param entries       at least one entry, with consecutive ids
 */
public record LedgerAppendRequest(long ledgerId, long fragmentStart, boolean recovery, long lac,
        List<LogRecord> entries) {

    private static final int HEADER = 8 + 8 + 1 + 8 + 4;
    private static final int MIN_RECORD = 31;

    /** Copies the list. */
    public LedgerAppendRequest {
        entries = List.copyOf(entries);
    }

    /**
     * Encodes the body at its exact size.
     *
     * @return body bytes
     */
    public byte[] encode() {
        BodyWriter w = new BodyWriter(HEADER + LedgerWire.encodedSize(entries)).i64(ledgerId).i64(fragmentStart)
                .u8(recovery ? 1 : 0).i64(lac).i32(entries.size());
        entries.forEach(r -> r.writeTo(w));
        return w.toBytes();
    }

    /**
     * Decodes a LEDGER_APPEND body, verifying every entry's CRC and that the ids are consecutive.
     *
     * @param body body bytes
     * @return the request
     * @throws ProtocolException MALFORMED, naming the field that is wrong
     */
    public static LedgerAppendRequest decode(byte[] body) {
        BodyReader r = new BodyReader(body);
        long ledger = LedgerWire.positive(r.i64("ledger id"), "ledger id");
        long fragmentStart = LedgerWire.positive(r.i64("fragment start"), "fragment start");
        int flags = r.u8("flags");
        if (flags > 1) {
            throw new ProtocolException(Status.MALFORMED, "LEDGER_APPEND flags " + flags + " are unknown");
        }
        long lac = r.i64("last acknowledged entry");
        if (lac < 0) {
            throw new ProtocolException(Status.MALFORMED, "last acknowledged entry " + lac + " is negative");
        }
        int n = r.i32("entry count");
        if (n < 1 || n > r.remaining() / MIN_RECORD) {
            throw new ProtocolException(Status.MALFORMED, "entry count " + n + " does not fit the body");
        }
        List<LogRecord> entries = LedgerWire.records(body, body.length - r.remaining(), n);
        return new LedgerAppendRequest(ledger, fragmentStart, flags == 1, lac, entries);
    }

    /**
     * Returns the first entry's id.
     *
     * @return the id
     */
    public long firstEntry() {
        return entries.get(0).lsn();
    }
}
