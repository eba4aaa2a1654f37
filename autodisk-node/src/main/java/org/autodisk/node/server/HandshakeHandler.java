package org.autodisk.node.server;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.autodisk.core.protocol.DecodeFailure;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.FrameDecoder;
import org.autodisk.core.protocol.Hello;
import org.autodisk.core.protocol.Opcode;
import org.autodisk.core.protocol.ProtocolException;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.ops.Caller;
import org.autodisk.node.ops.RequestDispatcher;
import org.autodisk.node.wire.NodeAuth;
import org.autodisk.node.wire.PeerOp;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Expects HELLO as the first frame. A client is accepted at once, and from then on its node-to-node operations are
 * refused from the frame header ({@link org.autodisk.core.protocol.FrameGate}). A node must prove that it belongs
 * to the cluster ({@link NodeAuth}): the answer carries this node's challenge and proof, and the next frame must be
 * NODE_AUTH with the right proof. A peer of another protocol version, one that sends anything else first, a node
 * that is no member or gives no or a wrong proof, and a connection silent for {@link #TIMEOUT_SECONDS} s get an
 * error naming the problem (logged with who tried) and are disconnected. Once accepted, this handler is replaced by
 * the {@code requests} handler.
 */
final class HandshakeHandler extends ChannelInboundHandlerAdapter {

    static final int TIMEOUT_SECONDS = 10;

    private static final Logger LOG = LoggerFactory.getLogger(HandshakeHandler.class);

    private final ServerSettings s;
    private Challenge challenge;
    private ScheduledFuture<?> timeout;

    /** A node's HELLO answered, its proof awaited. */
    private record Challenge(String peerId, byte[] helloNonce, byte[] answerNonce) {
    }

    HandshakeHandler(ServerSettings s) {
        this.s = s;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        timeout = ctx.executor().schedule(() -> refuse(ctx, 0, Opcode.HELLO.code(), Status.HANDSHAKE_REQUIRED,
                "no handshake within " + TIMEOUT_SECONDS + " s"), TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        timeout.cancel(false);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof DecodeFailure failure) {
            refuse(ctx, failure.requestId(), failure.opcode(), failure.status(), failure.message());
            return;
        }
        Frame frame = (Frame) msg;
        try {
            if (challenge != null) {
                checkProof(ctx, frame);
            } else if (frame.op() == Opcode.HELLO) {
                hello(ctx, frame, Hello.decode(frame.body()));
            } else {
                refuse(ctx, frame.requestId(), frame.opcode(), Status.HANDSHAKE_REQUIRED,
                        "the first frame on a connection must be HELLO, got opcode " + frame.opcode());
            }
        } catch (ProtocolException e) {
            refuse(ctx, frame.requestId(), frame.opcode(), e.status(), e.getMessage());
        }
    }

    private void hello(ChannelHandlerContext ctx, Frame frame, Hello hello) {
        if (hello.version() != Frame.PROTOCOL_VERSION || frame.version() != Frame.PROTOCOL_VERSION) {
            refuse(ctx, frame.requestId(), frame.opcode(), Status.UNSUPPORTED_VERSION, hello.kind().name()
                    .toLowerCase(java.util.Locale.ROOT) + " '" + hello.peerId() + "' speaks protocol version "
                    + hello.version() + "; node " + s.nodeId() + " speaks version " + Frame.PROTOCOL_VERSION);
        } else if (hello.kind() == Hello.PeerKind.CLIENT) {
            ((FrameDecoder) ctx.pipeline().get("frameDecoder")).gate((version, opcode, flags) ->
                    opcode >= Opcode.FIRST_PEER_CODE ? RequestDispatcher.peerOnly(s.nodeId(), opcode) : null);
            ctx.writeAndFlush(frame.response(Hello.answer(s.nodeId(), new byte[0])));
            accept(ctx, Caller.CLIENT, hello.peerId());
        } else {
            challenge(ctx, frame, hello);
        }
    }

    private void challenge(ChannelHandlerContext ctx, Frame frame, Hello hello) {
        String problem = s.auth() == null ? "node " + s.nodeId() + " has no cluster.secret and accepts no node "
                + "connections" : !s.members().test(hello.peerId()) ? "'" + hello.peerId() + "' is not a node "
                + "of this cluster (cluster.nodes, or a member that joined)" : hello.extension().length
                != NodeAuth.BYTES ? "node '" + hello.peerId() + "' sent no proof of cluster membership" : null;
        if (problem != null) {
            intruder(ctx, frame, hello.peerId(), problem);
            return;
        }
        byte[] answerNonce = NodeAuth.nonce();
        byte[] proof = s.auth().prove(NodeAuth.Side.ANSWER, hello.extension(), answerNonce, hello.peerId(),
                s.nodeId());
        challenge = new Challenge(hello.peerId(), hello.extension(), answerNonce);
        ctx.writeAndFlush(frame.response(Hello.answer(s.nodeId(), NodeAuth.answerExtension(answerNonce, proof))));
    }

    private void checkProof(ChannelHandlerContext ctx, Frame frame) {
        Challenge c = challenge;
        if (frame.opcode() != PeerOp.NODE_AUTH.code()) {
            intruder(ctx, frame, c.peerId(), "node '" + c.peerId() + "' sent " + PeerOp.describe(frame.opcode())
                    + " instead of its proof of cluster membership (NODE_AUTH)");
        } else if (!s.auth().verify(frame.body(), NodeAuth.Side.HELLO, c.helloNonce(), c.answerNonce(),
                c.peerId(), s.nodeId())) {
            intruder(ctx, frame, c.peerId(), "node '" + c.peerId() + "' gave a wrong proof of cluster membership "
                    + "(its cluster.secret differs)");
        } else {
            ctx.writeAndFlush(frame.response(Responses.ok()));
            accept(ctx, Caller.NODE, c.peerId());
        }
    }

    private void accept(ChannelHandlerContext ctx, Caller caller, String peerId) {
        LOG.debug("{}: {} {} connected from {}", s.nodeId(), caller, peerId, ctx.channel().remoteAddress());
        ctx.pipeline().replace(this, "requests", new RequestInboundHandler(s.nodeId(), s.dispatcher(), caller,
                peerId));
    }

    private void intruder(ChannelHandlerContext ctx, Frame frame, String claimed, String problem) {
        LOG.warn("{}: refused a node handshake from {} claiming to be '{}': {}", s.nodeId(),
                ctx.channel().remoteAddress(), claimed, problem);
        reply(ctx, frame.requestId(), frame.opcode(), Status.NOT_PERMITTED, problem);
    }

    private void refuse(ChannelHandlerContext ctx, long requestId, int opcode, Status status, String message) {
        LOG.info("{}: refusing connection from {}: {}", s.nodeId(), ctx.channel().remoteAddress(), message);
        reply(ctx, requestId, opcode, status, message);
    }

    private static void reply(ChannelHandlerContext ctx, long requestId, int opcode, Status status, String message) {
        Frame reply = new Frame(Frame.PROTOCOL_VERSION, opcode, Frame.FLAG_RESPONSE, 0, requestId,
                Responses.error(status, message));
        ctx.writeAndFlush(reply).addListener(ChannelFutureListener.CLOSE);
    }
}
