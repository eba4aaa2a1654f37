package org.autodisk.core.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;

/**
 * Splits the byte stream into {@link Frame}s. A small state machine: read the length, then the header, then
 * either the body, or - for a frame over the limit or one the {@link FrameGate} refuses - skip the body unread
 * and pass a {@link DecodeFailure} up so the frame can be answered. A length below the header size, or an
 * oversized length whose header is not of this protocol version, means the stream is garbage: one
 * {@link DecodeFailure} is passed up and everything after it is discarded. No body buffer is allocated before
 * the limit and the gate have been checked.
 */
public final class FrameDecoder extends ByteToMessageDecoder {

    private enum State { LENGTH, HEADER, BODY, SKIP, CORRUPT }

    private final int maxFrameBytes;
    private volatile FrameGate gate = FrameGate.OPEN;
    private State state = State.LENGTH;
    private int length;
    private int version;
    private int opcode;
    private int flags;
    private int hops;
    private long requestId;
    private long toSkip;

    /**
     * Creates a decoder that reads every frame up to the limit.
     *
     * @param maxFrameBytes the largest accepted frame (header plus body, without the length field)
     */
    public FrameDecoder(int maxFrameBytes) {
        this.maxFrameBytes = maxFrameBytes;
        // bodies are copied out, so reads are chained rather than merged: a partial frame left over from one read
        // never makes the next (up to 64 KiB under load) be copied into a freshly allocated, zeroed buffer
        setCumulator(COMPOSITE_CUMULATOR);
    }

    /**
     * Sets the gate that decides, from the header, whether a frame's body is read (from the next frame on).
     *
     * @param g the gate
     */
    public void gate(FrameGate g) {
        this.gate = g;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        boolean progress = true;
        while (progress && in.isReadable()) {
            progress = switch (state) {
                case LENGTH -> readLength(in, out);
                case HEADER -> readHeader(in, out);
                case BODY -> readBody(in, out);
                case SKIP -> skip(in);
                case CORRUPT -> discardAll(in);
            };
        }
    }

    private boolean readLength(ByteBuf in, List<Object> out) {
        if (in.readableBytes() < Frame.LENGTH_BYTES) {
            return false;
        }
        length = in.readInt();
        if (length < Frame.HEADER_BYTES) {
            corrupt(out, "garbage on the connection: frame length " + length + " is below the "
                    + Frame.HEADER_BYTES + "-byte header");
            return true;
        }
        state = State.HEADER;
        return true;
    }

    private boolean readHeader(ByteBuf in, List<Object> out) {
        if (in.readableBytes() < Frame.HEADER_BYTES) {
            return false;
        }
        version = in.readUnsignedByte();
        opcode = in.readUnsignedByte();
        flags = in.readUnsignedByte();
        hops = in.readUnsignedByte();
        requestId = in.readLong();
        if (length > maxFrameBytes) {
            return oversize(out);
        }
        FrameGate.Refusal refusal = gate.check(version, opcode, flags);
        if (refusal != null) {
            skipBody(out, new DecodeFailure(refusal.status(), requestId, opcode, refusal.message(), false));
            return true;
        }
        state = State.BODY;
        return length > Frame.HEADER_BYTES || readBody(in, out);
    }

    private boolean oversize(List<Object> out) {
        if (version != Frame.PROTOCOL_VERSION) {
            corrupt(out, "garbage on the connection: not an AutoDisk frame (declared length " + length
                    + ", version byte " + version + ")");
            return true;
        }
        skipBody(out, new DecodeFailure(Status.FRAME_TOO_LARGE, requestId, opcode, "frame of " + length
                + " bytes exceeds the limit of " + maxFrameBytes + " bytes (limits.max-frame-bytes)", false));
        return true;
    }

    private void skipBody(List<Object> out, DecodeFailure failure) {
        out.add(failure);
        toSkip = (long) length - Frame.HEADER_BYTES;
        state = toSkip == 0 ? State.LENGTH : State.SKIP;
    }

    private boolean readBody(ByteBuf in, List<Object> out) {
        int bodyBytes = length - Frame.HEADER_BYTES;
        if (in.readableBytes() < bodyBytes) {
            return false;
        }
        byte[] body = new byte[bodyBytes];
        in.readBytes(body);
        out.add(new Frame(version, opcode, flags, hops, requestId, body));
        state = State.LENGTH;
        return true;
    }

    private void corrupt(List<Object> out, String message) {
        state = State.CORRUPT;
        out.add(new DecodeFailure(Status.MALFORMED, 0, 0, message, true));
    }

    private boolean skip(ByteBuf in) {
        int n = (int) Math.min(toSkip, in.readableBytes());
        in.skipBytes(n);
        toSkip -= n;
        if (toSkip == 0) {
            state = State.LENGTH;
        }
        return true;
    }

    private boolean discardAll(ByteBuf in) {
        in.skipBytes(in.readableBytes());
        return false;
    }

    /**
     * Tells whether the decoder has given up on this connection.
     *
     * @return true after garbage was seen
     */
    public boolean isCorrupt() {
        return state == State.CORRUPT;
    }
}
