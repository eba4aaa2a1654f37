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

    /**
     * A LEDGER_APPLY answer: how far a store holds a ledger (applied, durable), and the metadata version the answering
     * node had applied when it read them (read after them), so that a log node counts the answer only under a view of
     * the metadata at least as new (one that knows every migration the store's positions may have moved past).
     *
     * @param applied the entry the store is applied through
     * @param durable the entry it holds durably through
     * @param version the answering node's metadata version, read after the positions
     * @return the body
     */
    public static byte[] held(long applied, long durable, long version) {
        return new BodyWriter(25).u8(Status.OK.code()).i64(applied).i64(durable).i64(version).toBytes();
    }

    /**
     * Parses a result of {@link #held}; an answer of a node from before versions were sent has version 0.
     *
     * @param body an OK response body
     * @return applied, durable and version, in order
     */
    public static long[] parseHeld(byte[] body) {
        BodyReader r = new BodyReader(body, 1, body.length);
        long applied = r.i64("applied entry");
        long durable = r.i64("durable entry");
        return new long[] {applied, durable, body.length >= 25 ? r.i64("metadata version") : 0};
    }
}
