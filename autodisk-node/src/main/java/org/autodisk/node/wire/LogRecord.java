package org.autodisk.node.wire;

import java.util.zip.CRC32C;
import org.autodisk.core.protocol.BodyReader;
import org.autodisk.core.protocol.BodyWriter;
import org.autodisk.core.protocol.ProtocolException;
import org.autodisk.core.protocol.Status;

/**
 * One write-ahead-log record: what a data node writes to its range's ledger before it applies and acknowledges a
 * change. Encoded as {@code i32 rangeId, i64 epoch, i64 lsn, u8 op, key (u16 length), value (i32 length)}
 * followed by an {@code i32} CRC32C of those bytes; decoding verifies the CRC.
 *
 * @param rangeId the range the key belongs to
 * @param epoch   the range's ownership epoch when the owner wrote the record
 * @param lsn     log sequence number, increasing per data node (the log stream)
 * @param op      {@link #PUT} or {@link #DELETE}
 * @param key     the key
 * @param value   the value ({@code PUT}); empty for {@code DELETE}
 */
public record LogRecord(int rangeId, long epoch, long lsn, int op, byte[] key, byte[] value) {

    /** Create or replace. */
    public static final int PUT = 1;

    /** Delete. */
    public static final int DELETE = 2;

    /** Checks the operation code. */
    public LogRecord {
        if (op != PUT && op != DELETE) {
            throw new ProtocolException(Status.MALFORMED, "log record op " + op + " is neither PUT nor DELETE");
        }
    }

    /**
     * Appends the encoded record and its CRC to a writer.
     *
     * @param w the writer
     * @return the writer
     */
    public BodyWriter writeTo(BodyWriter w) {
        int start = w.size();
        w.i32(rangeId).i64(epoch).i64(lsn).u8(op).shortBytes(key).longBytes(value);
        return w.i32(w.crc32c(start));
    }

    /**
     * Encodes the record with its CRC.
     *
     * @return the bytes
     */
    public byte[] encode() {
        return writeTo(new BodyWriter(key.length + value.length + 40)).toBytes();
    }

    /**
     * Returns the encoded size in bytes, CRC included.
     *
     * @return the size
     */
    public int encodedSize() {
        return 4 + 8 + 8 + 1 + 2 + key.length + 4 + value.length + 4;
    }

    /**
     * Reads one record and verifies its CRC.
     *
     * @param body  the bytes
     * @param start where the record starts
     * @return the record
     * @throws ProtocolException MALFORMED if truncated or the CRC does not match
     */
    public static LogRecord decode(byte[] body, int start) {
        BodyReader r = new BodyReader(body, start, body.length);
        LogRecord rec = new LogRecord(r.i32("range id"), r.i64("epoch"), r.i64("lsn"), r.u8("op"),
                r.shortBytes("key"), r.longBytes("value"));
        int stored = r.i32("crc");
        CRC32C crc = new CRC32C();
        crc.update(body, start, rec.encodedSize() - 4);
        if ((int) crc.getValue() != stored) {
            throw new ProtocolException(Status.MALFORMED, "log record lsn " + rec.lsn() + ": CRC32C mismatch");
        }
        return rec;
    }
}
