package org.autodisk.node.wire;

import java.util.ArrayList;
import java.util.List;
import org.autodisk.core.protocol.BodyReader;
import org.autodisk.core.protocol.BodyWriter;
import org.autodisk.core.protocol.ProtocolException;
import org.autodisk.core.protocol.Status;

/** The pieces the ledger operations' bodies share: field checks and runs of entries (as records, id = LSN). */
public final class LedgerWire {

    private LedgerWire() {
    }

    static long positive(long value, String field) {
        if (value < 1) {
            throw new ProtocolException(Status.MALFORMED, field + " " + value + " is not positive");
        }
        return value;
    }

    /** The bytes a run of entries takes in a body. */
    static int encodedSize(List<LogRecord> entries) {
        int size = 0;
        for (LogRecord r : entries) {
            size += r.encodedSize();
        }
        return size;
    }

    /**
     * Reads {@code n} records from {@code pos} to the end of the body, with consecutive ids.
     */
    static List<LogRecord> records(byte[] body, int pos, int n) {
        List<LogRecord> out = new ArrayList<>(n);
        int at = pos;
        for (int i = 0; i < n; i++) {
            LogRecord rec = LogRecord.decode(body, at);
            if (i == 0 && rec.lsn() < 1) {
                throw new ProtocolException(Status.MALFORMED, "entry id " + rec.lsn() + " is not positive");
            }
            if (i > 0 && rec.lsn() != out.get(i - 1).lsn() + 1) {
                throw new ProtocolException(Status.MALFORMED, "entry " + rec.lsn() + " follows entry "
                        + out.get(i - 1).lsn() + ": entries must have consecutive ids");
            }
            out.add(rec);
            at += rec.encodedSize();
        }
        if (at != body.length) {
            throw new ProtocolException(Status.MALFORMED, "ledger entries are followed by " + (body.length - at)
                    + " trailing bytes");
        }
        return out;
    }

    /**
     * A LEDGER_FENCE body.
     *
     * @param ledgerId the ledger
     * @return body bytes
     */
    public static byte[] fence(long ledgerId) {
        return new BodyWriter(8).i64(ledgerId).toBytes();
    }

    /**
     * Decodes a LEDGER_FENCE body.
     *
     * @param body body bytes
     * @return the ledger
     */
    public static long parseFence(byte[] body) {
        BodyReader r = new BodyReader(body);
        long ledger = positive(r.i64("ledger id"), "ledger id");
        r.expectEnd("LEDGER_FENCE request");
        return ledger;
    }

    /**
     * A LEDGER_READ answer: OK and the entries, as records.
     *
     * @param entries consecutive entries (maybe none)
     * @return body bytes
     */
    public static byte[] entriesResult(List<LogRecord> entries) {
        int size = 1 + 4;
        for (LogRecord r : entries) {
            size += r.encodedSize();
        }
        BodyWriter w = new BodyWriter(size).u8(Status.OK.code()).i32(entries.size());
        entries.forEach(r -> r.writeTo(w));
        return w.toBytes();
    }

    /**
     * Parses a LEDGER_READ answer, verifying every CRC and that the ids are consecutive.
     *
     * @param body an OK answer
     * @return the entries, as records
     */
    public static List<LogRecord> parseEntries(byte[] body) {
        BodyReader r = new BodyReader(body, 1, body.length);
        int n = r.i32("entry count");
        if (n < 0 || n > r.remaining() / 31) {
            throw new ProtocolException(Status.MALFORMED, "entry count " + n + " does not fit the answer");
        }
        return n == 0 ? List.of() : records(body, body.length - r.remaining(), n);
    }

    /** The most ledgers one LEDGER_LEASE names. */
    public static final int MAX_LEASE_LEDGERS = 65_536;

    /**
     * A LEDGER_LEASE body, and its answer's list: ledger ids.
     *
     * @param ledgerIds the ledgers (at most {@link #MAX_LEASE_LEDGERS})
     * @return body bytes
     */
    public static byte[] ledgerIds(List<Long> ledgerIds) {
        BodyWriter w = new BodyWriter(4 + 8 * ledgerIds.size()).i32(ledgerIds.size());
        ledgerIds.forEach(w::i64);
        return w.toBytes();
    }

    /**
     * Decodes a LEDGER_LEASE body.
     *
     * @param body body bytes
     * @return the ledgers, each positive
     * @throws ProtocolException MALFORMED, naming what is wrong
     */
    public static List<Long> parseLedgerIds(byte[] body) {
        return ids(new BodyReader(body), "LEDGER_LEASE request");
    }

    /**
     * A LEDGER_LEASE answer: OK and the ledgers among those asked that are fenced.
     *
     * @param fenced the fenced ledgers
     * @return body bytes
     */
    public static byte[] fencedResult(List<Long> fenced) {
        BodyWriter w = new BodyWriter(1 + 4 + 8 * fenced.size()).u8(Status.OK.code()).i32(fenced.size());
        fenced.forEach(w::i64);
        return w.toBytes();
    }

    /**
     * Parses a LEDGER_LEASE answer.
     *
     * @param body an OK answer
     * @return the fenced ledgers
     */
    public static List<Long> parseFencedResult(byte[] body) {
        return ids(new BodyReader(body, 1, body.length), "LEDGER_LEASE answer");
    }

    private static List<Long> ids(BodyReader r, String what) {
        int n = r.i32("ledger count");
        if (n < 0 || n > MAX_LEASE_LEDGERS || n > r.remaining() / 8) {
            throw new ProtocolException(Status.MALFORMED, "ledger count " + n + " does not fit the " + what);
        }
        List<Long> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(positive(r.i64("ledger id"), "ledger id"));
        }
        r.expectEnd(what);
        return out;
    }
}
