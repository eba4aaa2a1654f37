package org.autodisk.core.protocol;

/**
 * Decides, from a frame's header alone, whether {@link FrameDecoder} reads its body. A refused frame's body is
 * skipped unread and the refusal is passed up as a {@link DecodeFailure} that keeps the connection usable; the
 * receiver answers it. A node uses this to refuse node-to-node operations on client connections.
 */
@FunctionalInterface
public interface FrameGate {

    /** Reads every frame. */
    FrameGate OPEN = (version, opcode, flags) -> null;

    /**
     * Checks a frame header.
     *
     * @param version the frame's protocol version
     * @param opcode  its opcode
     * @param flags   its flags
     * @return {@code null} to read the frame, else why it is refused
     */
    Refusal check(int version, int opcode, int flags);

    /**
     * Why a frame is not read.
     *
     * @param status  the status the frame is answered with
     * @param message the message, naming the operation and what would be needed
     */
    record Refusal(Status status, String message) {
    }
}
