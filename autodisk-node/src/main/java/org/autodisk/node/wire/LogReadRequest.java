package org.autodisk.node.wire;

import org.autodisk.core.protocol.BodyReader;
import org.autodisk.core.protocol.BodyWriter;

/**
 * LOG_READ body: a data node's log records from an LSN on.
 *
 * @param stream     the data node whose log is read
 * @param fromLsn    first LSN wanted (inclusive)
 * @param maxRecords at most this many records (0 asks only for the last durable LSN)
 */
public record LogReadRequest(String stream, long fromLsn, int maxRecords) {

    /**
     * Encodes the body.
     *
     * @return body bytes
     */
    public byte[] encode() {
        return new BodyWriter(24 + stream.length()).string(stream).i64(fromLsn).i32(maxRecords).toBytes();
    }

    /**
     * Decodes a LOG_READ body.
     *
     * @param body body bytes
     * @return the request
     */
    public static LogReadRequest decode(byte[] body) {
        BodyReader r = new BodyReader(body);
        LogReadRequest req = new LogReadRequest(r.string("stream"), r.i64("from lsn"), r.i32("max records"));
        r.expectEnd("LOG_READ request");
        return req;
    }
}
