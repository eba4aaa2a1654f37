package org.autodisk.core.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToByteEncoder;

/** Writes {@link Frame}s: length, header, body. Stateless, so one instance serves every channel. */
@Sharable
public final class FrameEncoder extends MessageToByteEncoder<Frame> {

    /** The shared instance. */
    public static final FrameEncoder INSTANCE = new FrameEncoder();

    private FrameEncoder() {
        super(Frame.class);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, Frame frame, ByteBuf out) {
        write(frame, out);
    }

    @Override
    protected ByteBuf allocateBuffer(ChannelHandlerContext ctx, Frame frame, boolean preferDirect) {
        return ctx.alloc().ioBuffer(frame.wireBytes());
    }

    /**
     * Writes one frame into a buffer.
     *
     * @param frame the frame
     * @param out   the buffer
     */
    public static void write(Frame frame, ByteBuf out) {
        out.writeInt(Frame.HEADER_BYTES + frame.body().length);
        out.writeByte(frame.version());
        out.writeByte(frame.opcode());
        out.writeByte(frame.flags());
        out.writeByte(frame.hops());
        out.writeLong(frame.requestId());
        out.writeBytes(frame.body());
    }
}
