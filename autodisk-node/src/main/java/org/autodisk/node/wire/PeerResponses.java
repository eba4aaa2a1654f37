package org.autodisk.node.wire;

import org.autodisk.core.protocol.BodyReader;
import org.autodisk.core.protocol.BodyWriter;
import org.autodisk.core.protocol.Status;

/** Builds and parses the node-to-node response payloads that carry entry ids of a ledger. */
public final class PeerResponses {

    private PeerResponses() {
    }

    /**
     * A success carrying one entry id (LEDGER_APPEND, LEDGER_FENCE: the ledger's last entry held there).
     *
     * @param lsn the entry id
     * @return body bytes
     */
    public static byte[] lsnResult(long lsn) {
        return new BodyWriter(9).u8(Status.OK.code()).i64(lsn).toBytes();
    }

    /**
     * Parses a result of {@link #lsnResult}.
     *
     * @param body an OK response body
     * @return the entry id
     */
    public static long parseLsn(byte[] body) {
        return new BodyReader(body, 1, body.length).i64("lsn");
    }

    /**
     * A success carrying two entry ids (LEDGER_APPLY: the entry the store is applied through, and the one it holds
     * durably through).
     *
     * @param first  the first entry id
     * @param second the second entry id
     * @return the body
     */
    public static byte[] lsnPair(long first, long second) {
        return new BodyWriter(17).u8(Status.OK.code()).i64(first).i64(second).toBytes();
    }

    /**
     * Parses a result of {@link #lsnPair}.
     *
     * @param body an OK response body
     * @return the two entry ids, in order
     */
    public static long[] parseLsnPair(byte[] body) {
        BodyReader r = new BodyReader(body, 1, body.length);
        return new long[] {r.i64("first lsn"), r.i64("second lsn")};
    }
}
