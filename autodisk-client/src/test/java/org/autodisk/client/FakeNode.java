package org.autodisk.client;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.autodisk.core.Keys;
import org.autodisk.core.cluster.ClusterStatus;
import org.autodisk.core.cluster.NodeStatus;
import org.autodisk.core.cluster.RangeStatus;
import org.autodisk.core.protocol.BodyWriter;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.FrameDecoder;
import org.autodisk.core.protocol.FrameEncoder;
import org.autodisk.core.protocol.Hello;
import org.autodisk.core.protocol.InsertRequest;
import org.autodisk.core.protocol.KeyRequest;
import org.autodisk.core.protocol.KeyValue;
import org.autodisk.core.protocol.Opcode;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.core.protocol.Trace;
import org.autodisk.core.protocol.TraceHop;
import org.autodisk.core.protocol.TraverseRequest;
import org.autodisk.core.protocol.TraverseResult;

/** A single in-memory node speaking the real codec, with switches to misbehave. */
final class FakeNode implements AutoCloseable {

    /** How the node treats requests after the handshake. */
    enum Mode {
        /** Answers normally. */
        NORMAL,
        /** Never answers. */
        SILENT,
        /** Closes the connection on receipt. */
        CLOSE,
        /** Sends an error with request id 0, as a node that saw garbage does, then closes. */
        GOODBYE,
        /** Rejects the handshake with UNSUPPORTED_VERSION. */
        OLD_VERSION
    }

    static final String OWNER = "owner-node";
    static final String OLD_VERSION_MESSAGE = "protocol version 1 is not supported: this node speaks version 7";

    private final String nodeId;
    private final NavigableMap<byte[], byte[]> data = new TreeMap<>(Keys.ORDER);
    private final Map<Opcode, AtomicInteger> counts = new ConcurrentHashMap<>();
    private final List<String> clientIds = new ArrayList<>();
    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final ChannelGroup channels = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
    private final Channel server;
    private volatile Mode mode = Mode.NORMAL;
    private volatile Status errorStatus;
    private volatile String errorMessage;
    private volatile boolean traceErrors = true;
    private volatile int pageBudget = Integer.MAX_VALUE;
    private volatile Predicate<String> rejectInsert = key -> false;

    private FakeNode(String nodeId) {
        this.nodeId = nodeId;
        this.server = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        channels.add(ch);
                        ch.pipeline()
                                .addLast("frameDecoder", new FrameDecoder(64 << 20))
                                .addLast("frameEncoder", FrameEncoder.INSTANCE)
                                .addLast("requests", new Handler());
                    }
                })
                .bind("127.0.0.1", 0).syncUninterruptibly().channel();
        channels.add(server);
    }

    static FakeNode start(String nodeId) {
        return new FakeNode(nodeId);
    }

    String address() {
        return "127.0.0.1:" + ((InetSocketAddress) server.localAddress()).getPort();
    }

    String nodeId() {
        return nodeId;
    }

    void mode(Mode newMode) {
        this.mode = newMode;
    }

    void answerWith(Status status, String message) {
        this.errorMessage = message;
        this.errorStatus = status;
    }

    void traceErrors(boolean on) {
        this.traceErrors = on;
    }

    void pageBudget(int entries) {
        this.pageBudget = entries;
    }

    void rejectInsertsWhere(Predicate<String> keyTest) {
        this.rejectInsert = keyTest;
    }

    int count(Opcode op) {
        return counts.computeIfAbsent(op, o -> new AtomicInteger()).get();
    }

    synchronized void put(String key, String value) {
        data.put(Keys.utf8(key), Keys.utf8(value));
    }

    synchronized Map<String, String> contents() {
        Map<String, String> out = new LinkedHashMap<>();
        data.forEach((k, v) -> out.put(new String(k, StandardCharsets.UTF_8), new String(v, StandardCharsets.UTF_8)));
        return out;
    }

    synchronized List<String> clientIds() {
        return List.copyOf(clientIds);
    }

    @Override
    public void close() {
        channels.close().awaitUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    /** Answers one connection's requests. */
    private final class Handler extends SimpleChannelInboundHandler<Frame> {

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, Frame frame) {
            Opcode op = frame.op();
            counts.computeIfAbsent(op, o -> new AtomicInteger()).incrementAndGet();
            if (op == Opcode.HELLO) {
                hello(ctx, frame);
                return;
            }
            switch (mode) {
                case SILENT -> { }
                case CLOSE -> ctx.close();
                case GOODBYE -> ctx.writeAndFlush(new Frame(Frame.PROTOCOL_VERSION, 0, Frame.FLAG_RESPONSE, 0, 0,
                        Responses.error(Status.MALFORMED, "garbage on the connection: closing it")))
                        .addListener(ChannelFutureListener.CLOSE);
                default -> answer(ctx, frame);
            }
        }

        private void hello(ChannelHandlerContext ctx, Frame frame) {
            Hello hello = Hello.decode(frame.body());
            synchronized (FakeNode.this) {
                clientIds.add(hello.peerId());
            }
            if (mode == Mode.OLD_VERSION) {
                ctx.writeAndFlush(frame.response(Responses.error(Status.UNSUPPORTED_VERSION, OLD_VERSION_MESSAGE)))
                        .addListener(ChannelFutureListener.CLOSE);
            } else {
                ctx.writeAndFlush(frame.response(new BodyWriter(16).u8(0).string(nodeId).toBytes()));
            }
        }

        private void answer(ChannelHandlerContext ctx, Frame frame) {
            Status status = errorStatus;
            byte[] body = status != null ? Responses.error(status, errorMessage) : execute(frame);
            if (frame.isTraced() && (Responses.status(body) == Status.OK || traceErrors)) {
                body = Trace.append(body, false, new TraceHop(OWNER, "store", Map.of("queue", 10L)));
                body = Trace.append(body, true, new TraceHop(nodeId, "forward", Map.of("forward", 20L)));
            }
            ctx.writeAndFlush(frame.response(body));
        }
    }

    private byte[] execute(Frame frame) {
        synchronized (this) {
            return switch (frame.op()) {
                case INSERT -> insert(InsertRequest.decode(frame.body()));
                case SEARCH -> Responses.searchResult(data.get(KeyRequest.decode(frame.body()).key()));
                case DELETE -> Responses.deleteResult(data.remove(KeyRequest.decode(frame.body()).key()) != null);
                case TRAVERSE -> Responses.traverseResult(traverse(TraverseRequest.decode(frame.body())));
                case STATUS -> Responses.bytesResult(status().toJson());
                default -> Responses.error(Status.UNKNOWN_OPCODE, "unknown opcode " + frame.opcode());
            };
        }
    }

    private byte[] insert(InsertRequest req) {
        if (rejectInsert.test(new String(req.key(), StandardCharsets.UTF_8))) {
            return Responses.error(Status.INVALID_ARGUMENT, "rejected " + Keys.render(req.key()) + " on purpose");
        }
        data.put(req.key(), req.value());
        return Responses.ok();
    }

    private TraverseResult traverse(TraverseRequest req) {
        NavigableMap<byte[], byte[]> view = req.toExclusive() == null
                ? data.tailMap(req.from(), true)
                : data.subMap(req.from(), true, req.toExclusive(), false);
        List<KeyValue> entries = new ArrayList<>();
        for (Map.Entry<byte[], byte[]> e : view.entrySet()) {
            if (entries.size() == req.limit()) {
                break;
            }
            if (entries.size() == pageBudget) {
                return new TraverseResult(entries, e.getKey());
            }
            entries.add(new KeyValue(e.getKey(), e.getValue()));
        }
        return new TraverseResult(entries, null);
    }

    private ClusterStatus status() {
        NodeStatus me = new NodeStatus(nodeId, "data", address(), true, data.size(), Map.of("queue.depth", 0.0));
        return new ClusterStatus(nodeId, "range", 3, List.of(me), List.of(new RangeStatus(0, "", null, nodeId, 1)));
    }
}
