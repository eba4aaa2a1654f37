package org.autodisk.node.ops;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.autodisk.core.cluster.NodeStatus;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.FrameGate;
import org.autodisk.core.protocol.Opcode;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.balance.BalanceRound;
import org.autodisk.node.failure.Failures;
import org.autodisk.node.meta.MetadataStatus;
import org.autodisk.node.wire.PeerOp;

/**
 * The entry of every request into a node, from a client, a peer or an in-memory caller. On the calling (network)
 * thread it only checks the frame - version, operation, whether the caller may send it, whether this node's role
 * serves it - and enqueues; a full queue is answered OVERLOADED at once. On a worker it records the queue wait and
 * runs the operation's handler; any failure becomes an error reply. A handler registered {@link Handlers.Mode#INLINE}
 * runs on the calling thread instead (LEDGER_APPEND: it keeps one writer's appends in arrival order).
 */
public final class RequestDispatcher {

    private final NodeContext ctx;
    private final NodeRole role;
    private final Handlers handlers = new Handlers();
    private final AtomicInteger inFlight = new AtomicInteger();
    private volatile boolean closing;

    /** A frame that is answered at once. */
    private record Refusal(Status status, String message) {
    }

    /**
     * Creates the dispatcher with the operations every node serves and those of its role.
     *
     * @param ctx      the node's shared context
     * @param role     the node's role
     * @param failures the node's failure handling (answers HEARTBEAT)
     */
    public RequestDispatcher(NodeContext ctx, NodeRole role, Failures failures) {
        this.ctx = ctx;
        this.role = role;
        handlers.serve(Operation.HEARTBEAT, failures.heartbeatHandler(), Handlers.Mode.INLINE)
                .serve(Operation.STATUS, new StatusHandler(ctx, this::selfStatus, failures.detector()))
                .serve(Operation.NODE_INFO, this::nodeInfo);
        RulesReloadHandler reload = new RulesReloadHandler(ctx);
        handlers.serve(Operation.RULES_RELOAD, reload::coordinate).serve(Operation.RULES_PHASE, reload::phase);
        handlers.serve(Operation.RANGES, new RangesHandler(ctx, role::rangeUsage))
                .serve(Operation.MEMBERS, new MembersHandler(ctx, this::selfStatus))
                .serve(Operation.DIRECTORY, new DirectoryHandler(ctx))
                .serve(Operation.SPLIT, new SplitHandler(ctx.nodeId(), new Splits(ctx, role::splitCommand)))
                .serve(Operation.MIGRATE, new MigrateHandler(ctx.nodeId(), new MigrationAdmin(ctx,
                        new Splits(ctx, role::splitCommand))))
                .serve(Operation.MIGRATIONS, new MigrationsHandler(ctx))
                .serve(Operation.BALANCE, new BalanceHandler(ctx.nodeId(), new BalanceRound(ctx, role::rangeUsage,
                        role::disk, role::splitKey, new Splits(ctx, role::splitCommand))));
        role.register(handlers);
    }

    /**
     * Accepts one request frame; never blocks.
     *
     * @param frame  the request
     * @param caller who sent it, as the connection's handshake established
     * @param sink   where its response goes
     */
    public void accept(Frame frame, Caller caller, ReplySink sink) {
        Refusal refusal = refusal(frame, caller);
        if (refusal != null) {
            ctx.metrics().error();
            sink.send(frame.response(Responses.error(refusal.status(), refusal.message())));
            return;
        }
        Handlers.Entry entry = handlers.get(Operation.fromCode(frame.opcode()));
        Request request = new Request(ctx.nodeId(), frame, sink, System.nanoTime(), this::replied);
        inFlight.incrementAndGet();
        if (entry.mode() == Handlers.Mode.INLINE) {
            run(entry.handler(), request);
        } else if (!ctx.queue().offer(() -> run(entry.handler(), request))) {
            ctx.metrics().overloaded();
            request.replyError(Status.OVERLOADED, "node " + ctx.nodeId() + " is overloaded: its request queue is full ("
                    + ctx.queue().capacity() + " waiting, queue.capacity); retry later or on another node");
        }
    }

    private Refusal refusal(Frame frame, Caller caller) {
        if (closing) {
            return new Refusal(Status.SHUTTING_DOWN, "node " + ctx.nodeId() + " is shutting down");
        }
        if (frame.version() != Frame.PROTOCOL_VERSION) {
            return new Refusal(Status.UNSUPPORTED_VERSION, "frame of protocol version " + frame.version() + "; node "
                    + ctx.nodeId() + " speaks version " + Frame.PROTOCOL_VERSION);
        }
        if (frame.isResponse()) {
            return new Refusal(Status.MALFORMED, "a response frame was sent as a request");
        }
        if (frame.opcode() >= Opcode.FIRST_PEER_CODE && caller != Caller.NODE) {
            FrameGate.Refusal r = peerOnly(ctx.nodeId(), frame.opcode());
            return new Refusal(r.status(), r.message());
        }
        Operation op = Operation.fromCode(frame.opcode());
        if (op == null) {
            return unknown(frame.opcode());
        }
        return handlers.get(op) == null ? wrongRole(op) : null;
    }

    private Refusal unknown(int opcode) {
        if (opcode == Opcode.HELLO.code() || opcode == PeerOp.NODE_AUTH.code()) {
            return new Refusal(Status.MALFORMED, PeerOp.describe(opcode) + " belongs to the handshake, which is over "
                    + "on this connection");
        }
        return new Refusal(Status.UNKNOWN_OPCODE, "opcode " + opcode + " is not known to node " + ctx.nodeId()
                + " (protocol version " + Frame.PROTOCOL_VERSION + ")");
    }

    private Refusal wrongRole(Operation op) {
        return new Refusal(Status.WRONG_ROLE, "node " + ctx.nodeId() + " is a " + role.role().label() + " node and "
                + "does not serve " + op + "; the " + op.servedBy().label() + " nodes do: "
                + ctx.membersOf(op.servedBy()));
    }

    /**
     * The refusal of a node-to-node operation on a client connection, answered before its body is read.
     *
     * @param nodeId this node
     * @param opcode the operation
     * @return the refusal
     */
    public static FrameGate.Refusal peerOnly(String nodeId, int opcode) {
        return new FrameGate.Refusal(Status.NOT_PERMITTED, PeerOp.describe(opcode) + " is a node-to-node operation: "
                + "node " + nodeId + " refuses it on a connection whose HELLO said client");
    }

    private void run(OperationHandler handler, Request request) {
        ctx.metrics().queueWait(request.start());
        Guard.run(ctx.nodeId(), handler, request);
    }

    private void replied(long serviceNanos, boolean error) {
        inFlight.decrementAndGet();
        ctx.metrics().serviceTime(serviceNanos);
        if (error) {
            ctx.metrics().error();
        }
    }

    /**
     * Returns this node's own figures, as NODE_INFO answers them.
     *
     * @return the node's status
     */
    public NodeStatus selfStatus() {
        return selfStatus(false);
    }

    /**
     * Returns this node's own figures, without latency percentiles if brief (cheaper: for frequent asks).
     *
     * @param brief leave the percentiles out
     * @return the node's status
     */
    public NodeStatus selfStatus(boolean brief) {
        return new NodeStatus(ctx.nodeId(), ctx.self().role().label(), ctx.self().hostPort(), true,
                role.streamCount(), ctx.metrics().snapshot(!brief), metadataFacts(ctx.metadata().status()));
    }

    private void nodeInfo(Request r) {
        byte[] body = r.frame().body();
        byte ask = body.length > 0 ? body[0] : 0;
        String unwritable = ask == PeerOp.WRITABLE ? role.unwritable() : null;
        if (unwritable != null) {
            r.replyError(Status.NODE_UNAVAILABLE, ctx.nodeId() + " takes no writes: " + unwritable);
        } else {
            r.reply(Responses.bytesResult(org.autodisk.core.cluster.ClusterStatus.write(selfStatus(
                    ask == PeerOp.BRIEF || ask == PeerOp.WRITABLE))));
        }
    }

    private static Map<String, String> metadataFacts(MetadataStatus m) {
        Map<String, String> facts = new LinkedHashMap<>();
        facts.put("address", m.address());
        facts.put("role", m.role());
        if (m.leader() != null) {
            facts.put("leader", m.leader());
        }
        facts.put("term", String.valueOf(m.term()));
        facts.put("applied", String.valueOf(m.applied()));
        facts.put("version", String.valueOf(m.version()));
        return facts;
    }

    /** Stops admitting requests; those admitted still complete. */
    public void close() {
        closing = true;
    }

    /**
     * Returns how many admitted requests have not been answered.
     *
     * @return the count
     */
    public int inFlight() {
        return inFlight.get();
    }
}
