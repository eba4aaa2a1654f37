package org.autodisk.core.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;

/**
 * Splits the byte stream into {@link Frame}s. A small state machine: read the length, then either the whole
 * frame, or - for a frame over the limit - only its header (to answer it) before skipping its body unread.
 * A length below the header size, or an oversized length whose header is not of this protocol version, means
 * the stream is garbage: one {@link DecodeFailure} is passed up and everything after it is discarded. The
 * limit is checked before any body buffer is allocated.
 */
public final class FrameDecoder extends ByteToMessageDecoder {

    private enum State { LENGTH, FRAME, OVERSIZE_HEADER, SKIP, CORRUPT }

    private final int maxFrameBytes;
    private State state = State.LENGTH;
    private int length;
    private long toSkip;

    /**
     * Creates a decoder.
     *
     * @param maxFrameBytes the largest accepted frame (header plus body, without the length field)
     */
    public FrameDecoder(int maxFrameBytes) {
        this.maxFrameBytes = maxFrameBytes;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        boolean progress = true;
        while (progress && in.isReadable()) {
            progress = switch (state) {
                case LENGTH -> readLength(in, out);
                case FRAME -> readFrame(in, out);
                case OVERSIZE_HEADER -> readOversizeHeader(in, out);
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
            state = State.CORRUPT;
            out.add(new DecodeFailure(Status.MALFORMED, 0, 0, "garbage on the connection: frame length " + length
                    + " is below the " + Frame.HEADER_BYTES + "-byte header", true));
            return true;
        }
        state = length > maxFrameBytes ? State.OVERSIZE_HEADER : State.FRAME;
        return true;
    }

    private boolean readFrame(ByteBuf in, List<Object> out) {
        if (in.readableBytes() < length) {
            return false;
        }
        int version = in.readUnsignedByte();
        int opcode = in.readUnsignedByte();
        int flags = in.readUnsignedByte();
        int hops = in.readUnsignedByte();
        long requestId = in.readLong();
        byte[] body = new byte[length - Frame.HEADER_BYTES];
        in.readBytes(body);
        out.add(new Frame(version, opcode, flags, hops, requestId, body));
        state = State.LENGTH;
        return true;
    }

    private boolean readOversizeHeader(ByteBuf in, List<Object> out) {
        if (in.readableBytes() < Frame.HEADER_BYTES) {
            return false;
        }
        int version = in.readUnsignedByte();
        if (version != Frame.PROTOCOL_VERSION) {
            state = State.CORRUPT;
            out.add(new DecodeFailure(Status.MALFORMED, 0, 0, "garbage on the connection: not an AutoDisk frame "
                    + "(declared length " + length + ", version byte " + version + ")", true));
            return true;
        }
        int opcode = in.readUnsignedByte();
        in.skipBytes(2);
        long requestId = in.readLong();
        out.add(new DecodeFailure(Status.FRAME_TOO_LARGE, requestId, opcode, "frame of " + length
                + " bytes exceeds the limit of " + maxFrameBytes + " bytes (limits.max-frame-bytes)", false));
        toSkip = (long) length - Frame.HEADER_BYTES;
        state = State.SKIP;
        return true;
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
