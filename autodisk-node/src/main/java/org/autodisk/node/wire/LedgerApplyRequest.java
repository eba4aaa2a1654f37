package org.autodisk.node.wire;

import java.util.List;
import org.autodisk.core.protocol.BodyReader;
import org.autodisk.core.protocol.BodyWriter;
import org.autodisk.core.protocol.ProtocolException;
import org.autodisk.core.protocol.Status;

/**
 * LEDGER_APPLY body: consecutive entries of one ledger for a data node's backup copy of the ledger's writer, or, with
 * no entries, a question: how far does the backup copy (or, with {@code ownStore}, the data node's own store) hold the
 * ledger. The answer is always the applied and the durable entry of that store, and the answering node's metadata
 * version ({@link PeerResponses#held}).
 * Entries travel as {@link LogRecord}s whose LSN is the entry id, with their CRCs.
 *
 * @param ledgerId   the ledger (&ge; 1)
 * @param firstEntry the first entry sent (&ge; 1; any positive value in a question)
 * @param ownStore   ask about the data node's own store (a question only)
 * @param entries    consecutive entries from {@code firstEntry}, or none
 */
public record LedgerApplyRequest(long ledgerId, long firstEntry, boolean ownStore, List<LogRecord> entries) {

    private static final int HEADER = 8 + 8 + 1 + 4;
    private static final int MIN_RECORD = 31;

    /** Copies the list. */
    public LedgerApplyRequest {
        entries = List.copyOf(entries);
    }

    /**
     * A question without entries.
     *
     * @param ledgerId the ledger
     * @param ownStore about the node's own store rather than its backup copy
     * @return the request
     */
    public static LedgerApplyRequest question(long ledgerId, boolean ownStore) {
        return new LedgerApplyRequest(ledgerId, 1, ownStore, List.of());
    }

    /**
     * Encodes the body at its exact size.
     *
     * @return body bytes
     */
    public byte[] encode() {
        BodyWriter w = new BodyWriter(HEADER + LedgerWire.encodedSize(entries)).i64(ledgerId).i64(firstEntry)
                .u8(ownStore ? 1 : 0).i32(entries.size());
        entries.forEach(r -> r.writeTo(w));
        return w.toBytes();
    }

    /**
     * Decodes a LEDGER_APPLY body, verifying every entry's CRC and that the ids run on from the first entry.
     *
     * @param body body bytes
     * @return the request
     * @throws ProtocolException MALFORMED, naming the field that is wrong
     */
    public static LedgerApplyRequest decode(byte[] body) {
        BodyReader r = new BodyReader(body);
        long ledger = LedgerWire.positive(r.i64("ledger id"), "ledger id");
        long first = LedgerWire.positive(r.i64("first entry"), "first entry");
        int flags = r.u8("flags");
        if (flags > 1) {
            throw new ProtocolException(Status.MALFORMED, "LEDGER_APPLY flags " + flags + " are unknown");
        }
        int n = r.i32("entry count");
        if (n < 0 || n > r.remaining() / MIN_RECORD) {
            throw new ProtocolException(Status.MALFORMED, "entry count " + n + " does not fit the body");
        }
        if (n == 0 && r.remaining() > 0) {
            throw new ProtocolException(Status.MALFORMED, "a question is followed by " + r.remaining()
                    + " trailing bytes");
        }
        List<LogRecord> entries = n == 0 ? List.of() : LedgerWire.records(body, body.length - r.remaining(), n);
        if (!entries.isEmpty() && entries.get(0).lsn() != first) {
            throw new ProtocolException(Status.MALFORMED, "the first entry is " + entries.get(0).lsn()
                    + ", not the first entry " + first + " the request names");
        }
        if (flags == 1 && n > 0) {
            throw new ProtocolException(Status.MALFORMED, "a question about the node's own store carries no entries");
        }
        return new LedgerApplyRequest(ledger, first, flags == 1, entries);
    }
}
