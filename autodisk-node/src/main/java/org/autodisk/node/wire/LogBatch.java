package org.autodisk.node.wire;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.autodisk.core.protocol.BodyReader;
import org.autodisk.core.protocol.BodyWriter;
import org.autodisk.core.protocol.ProtocolException;
import org.autodisk.core.protocol.Status;

/**
 * A batch of write-ahead-log records of one stream (one data node's log): the body of LOG_APPEND, and the
 * payload of a LOG_READ answer, which adds the stream's last durable LSN.
 *
 * @param stream  the data node whose log this is
 * @param records records in LSN order
 * @param lastLsn in a LOG_READ answer the stream's last durable LSN at the log node; in a LOG_APPEND the LSN up
 *                to which the data node's own store holds its changes durably (the log may drop up to it)
 */
public record LogBatch(String stream, List<LogRecord> records, long lastLsn) {

    /**
     * Encodes the batch.
     *
     * @return body bytes
     */
    public byte[] encode() {
        return writeTo(new BodyWriter(encodedSize())).toBytes();
    }

    /**
     * Writes the batch into a body being built.
     *
     * @param w the body
     * @return {@code w}
     */
    public BodyWriter writeTo(BodyWriter w) {
        w.string(stream).i64(lastLsn).i32(records.size());
        for (LogRecord r : records) {
            r.writeTo(w);
        }
        return w;
    }

    /**
     * Returns the exact size of the encoded batch, so that it is built without copying.
     *
     * @return bytes
     */
    public int encodedSize() {
        int size = 2 + Math.min(0xFFFF, stream.getBytes(StandardCharsets.UTF_8).length) + 8 + 4;
        for (LogRecord r : records) {
            size += r.encodedSize();
        }
        return size;
    }

    /**
     * Decodes a batch, verifying every record's CRC.
     *
     * @param body  the bytes
     * @param start where the batch starts
     * @return the batch
     */
    public static LogBatch decode(byte[] body, int start) {
        BodyReader r = new BodyReader(body, start, body.length);
        String stream = r.string("stream");
        long last = r.i64("last lsn");
        int n = r.i32("record count");
        if (n < 0 || n > r.remaining() / 31) {
            throw new ProtocolException(Status.MALFORMED, "log record count " + n + " does not fit the body");
        }
        List<LogRecord> records = new ArrayList<>(n);
        int pos = body.length - r.remaining();
        for (int i = 0; i < n; i++) {
            LogRecord rec = LogRecord.decode(body, pos);
            records.add(rec);
            pos += rec.encodedSize();
        }
        if (pos != body.length) {
            throw new ProtocolException(Status.MALFORMED, "log batch has " + (body.length - pos) + " trailing bytes");
        }
        return new LogBatch(stream, records, last);
    }
}
