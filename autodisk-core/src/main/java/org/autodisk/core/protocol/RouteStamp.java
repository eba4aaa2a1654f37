package org.autodisk.core.protocol;

/**
 * What a sender routed a keyed request with ({@link Frame#FLAG_ROUTED}): the range it believed holds the key, that
 * range's epoch and generation, and the version of the cluster metadata it routed by. The receiver checks it
 * (TiKV's region epoch check is the model): if the sender's map is newer, the receiver catches up before it serves;
 * if the receiver's map is newer and the key is not served here, it answers {@link Status#STALE_MAP} with the
 * current range so the sender catches up and routes again. On the wire: 28 bytes at the start of the body,
 * {@code i32 rangeId, i64 epoch, i64 generation, i64 version}.
 *
 * @param rangeId    the range the sender located the key in
 * @param epoch      its epoch (rises on every owner change)
 * @param generation its generation (rises on every split)
 * @param version    the metadata version the sender's map reflects
 */
public record RouteStamp(int rangeId, long epoch, long generation, long version) {

    /** Bytes on the wire. */
    public static final int BYTES = 28;

    /**
     * Writes the stamp.
     *
     * @param w where
     * @return the writer
     */
    BodyWriter writeTo(BodyWriter w) {
        return w.i32(rangeId).i64(epoch).i64(generation).i64(version);
    }

    /**
     * Reads the stamp at the start of a routed frame's body.
     *
     * @param body the body
     * @return the stamp
     * @throws ProtocolException MALFORMED if the body is shorter than a stamp
     */
    static RouteStamp read(byte[] body) {
        BodyReader r = new BodyReader(body, 0, Math.min(body.length, BYTES));
        return new RouteStamp(r.i32("route stamp range id"), r.i64("route stamp epoch"),
                r.i64("route stamp generation"), r.i64("route stamp metadata version"));
    }
}
