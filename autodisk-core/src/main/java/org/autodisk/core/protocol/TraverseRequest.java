package org.autodisk.core.protocol;

/**
 * TRAVERSE body: streams with {@code from <= key < toExclusive} in unsigned key order, at most {@code limit}.
 *
 * @param from        first key (inclusive); empty means from the smallest key
 * @param toExclusive end key (exclusive); {@code null} means to the end of the key space
 * @param limit       at most this many streams, 1 or more
 */
public record TraverseRequest(byte[] from, byte[] toExclusive, int limit) {

    /**
     * Encodes the body.
     *
     * @return body bytes
     */
    public byte[] encode() {
        BodyWriter w = new BodyWriter(16 + from.length).shortBytes(from);
        if (toExclusive == null) {
            w.u8(0);
        } else {
            w.u8(1).shortBytes(toExclusive);
        }
        return w.i32(limit).toBytes();
    }

    /**
     * Decodes a TRAVERSE body.
     *
     * @param body body bytes
     * @return the request
     */
    public static TraverseRequest decode(byte[] body) {
        return decode(body, 0);
    }

    /**
     * Decodes a TRAVERSE body that starts at an offset (after a frame's route stamp).
     *
     * @param body   body bytes
     * @param offset where the request starts
     * @return the request
     */
    public static TraverseRequest decode(byte[] body, int offset) {
        BodyReader r = new BodyReader(body, offset, body.length);
        byte[] from = r.shortBytes("from key");
        byte[] to = r.u8("has-end flag") == 0 ? null : r.shortBytes("end key");
        TraverseRequest req = new TraverseRequest(from, to, r.i32("limit"));
        r.expectEnd("TRAVERSE request");
        return req;
    }
}
