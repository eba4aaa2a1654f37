package org.autodisk.node.wire;

import org.autodisk.core.protocol.BodyReader;
import org.autodisk.core.protocol.BodyWriter;
import org.autodisk.core.protocol.Status;

/** Builds and parses the node-to-node response payloads that carry LSNs. */
public final class PeerResponses {

    private PeerResponses() {
    }

    /**
     * A success carrying one LSN (LOG_APPEND: the stream's last durable LSN).
     *
     * @param lsn the LSN
     * @return body bytes
     */
    public static byte[] lsnResult(long lsn) {
        return new BodyWriter(9).u8(Status.OK.code()).i64(lsn).toBytes();
    }

    /**
     * Parses an LSN result.
     *
     * @param body an OK response body
     * @return the LSN
     */
    public static long parseLsn(byte[] body) {
        return new BodyReader(body, 1, body.length).i64("lsn");
    }

    /**
     * A success carrying two LSNs (BACKUP_APPLY: the LSN the backup copy is applied through, and the one it holds
     * durably through).
     *
     * @param first  the first LSN
     * @param second the second LSN
     * @return the body
     */
    public static byte[] lsnPair(long first, long second) {
        return new BodyWriter(17).u8(Status.OK.code()).i64(first).i64(second).toBytes();
    }

    /**
     * Parses a result of {@link #lsnPair}.
     *
     * @param body an OK response body
     * @return the two LSNs, in order
     */
    public static long[] parseLsnPair(byte[] body) {
        BodyReader r = new BodyReader(body, 1, body.length);
        return new long[] {r.i64("first lsn"), r.i64("second lsn")};
    }
}
