package org.autodisk.node.wire;

import java.nio.ByteBuffer;
import org.autodisk.core.protocol.ProtocolException;
import org.autodisk.core.protocol.Status;

/**
 * The body of a RANGE_SPLIT: which range to split at its middle stream, and the generation it was seen at (a range
 * that split or changed since is refused rather than split again).
 *
 * @param rangeId    the range
 * @param generation its generation when the split was decided
 */
public record RangeSplitRequest(int rangeId, long generation) {

    private static final int BYTES = Integer.BYTES + Long.BYTES;

    /**
     * Encodes the request.
     *
     * @return 12 bytes
     */
    public byte[] encode() {
        return ByteBuffer.allocate(BYTES).putInt(rangeId).putLong(generation).array();
    }

    /**
     * Decodes a request.
     *
     * @param body the frame body
     * @return the request
     * @throws ProtocolException MALFORMED if the body is not 12 bytes
     */
    public static RangeSplitRequest decode(byte[] body) {
        if (body.length != BYTES) {
            throw new ProtocolException(Status.MALFORMED, "a RANGE_SPLIT body is " + BYTES + " bytes (range id, "
                    + "generation), got " + body.length);
        }
        ByteBuffer b = ByteBuffer.wrap(body);
        return new RangeSplitRequest(b.getInt(), b.getLong());
    }
}
