package org.autodisk.node.wire;

import java.nio.ByteBuffer;
import org.autodisk.core.protocol.ProtocolException;
import org.autodisk.core.protocol.Status;

/**
 * The body of a RANGE_SPLIT: which range to split, at its middle stream or at a key, and the generation it was seen
 * at (a range that split or changed since is refused rather than split again).
 *
 * @param rangeId    the range
 * @param generation its generation when the split was decided
 * @param at         the first key of the right half; {@code null} for the range's middle stream
 */
public record RangeSplitRequest(int rangeId, long generation, byte[] at) {

    private static final int BYTES = Integer.BYTES + Long.BYTES;

    /**
     * A split at the range's middle stream, which only its owner can find.
     *
     * @param rangeId    the range
     * @param generation its generation when the split was decided
     */
    public RangeSplitRequest(int rangeId, long generation) {
        this(rangeId, generation, null);
    }

    /**
     * Encodes the request.
     *
     * @return 12 bytes, then the key if there is one
     */
    public byte[] encode() {
        byte[] key = at == null ? new byte[0] : at;
        return ByteBuffer.allocate(BYTES + key.length).putInt(rangeId).putLong(generation).put(key).array();
    }

    /**
     * Decodes a request.
     *
     * @param body the frame body
     * @return the request
     * @throws ProtocolException MALFORMED if the body is shorter than 12 bytes
     */
    public static RangeSplitRequest decode(byte[] body) {
        if (body.length < BYTES) {
            throw new ProtocolException(Status.MALFORMED, "a RANGE_SPLIT body is " + BYTES + " bytes (range id, "
                    + "generation) and the split key if any, got " + body.length);
        }
        ByteBuffer b = ByteBuffer.wrap(body);
        int rangeId = b.getInt();
        long generation = b.getLong();
        byte[] key = body.length == BYTES ? null : new byte[body.length - BYTES];
        if (key != null) {
            b.get(key);
        }
        return new RangeSplitRequest(rangeId, generation, key);
    }
}
