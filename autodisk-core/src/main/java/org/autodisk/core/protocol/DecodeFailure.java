package org.autodisk.core.protocol;

/**
 * What {@link FrameDecoder} passes up instead of a {@link Frame} when the input breaks the framing rules.
 *
 * @param status        {@link Status#FRAME_TOO_LARGE} (the connection stays usable: the frame was skipped)
 *                      or {@link Status#MALFORMED} (the stream is out of sync: the connection must close)
 * @param requestId     the request id of a skipped frame, or 0 if unknown
 * @param opcode        the opcode of a skipped frame, or 0 if unknown
 * @param message       what was wrong, naming the limit
 * @param connectionLost true if no further frame can be read from this connection
 */
public record DecodeFailure(Status status, long requestId, int opcode, String message, boolean connectionLost) {
}
