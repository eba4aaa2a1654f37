package org.autodisk.node.ops;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.autodisk.core.cluster.NodeStatus;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.Opcode;
import org.autodisk.core.protocol.ProtocolException;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.store.StoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The entry of every request into a node, from a client, a peer or an in-memory caller. On the calling
 * (network) thread it only checks the frame and enqueues; a full queue is answered OVERLOADED at once. On a
 * worker it records the queue wait and runs the opcode's handler; any failure becomes an error reply.
 * LOG_APPEND is the exception: its handler only hands the records to the log writer, so it runs on the calling
 * thread, which keeps the appends of one connection - one data node's stream - in arrival (LSN) order.
 */
public final class RequestDispatcher {

    private static final Logger LOG = LoggerFactory.getLogger(RequestDispatcher.class);

    private final NodeContext ctx;
    private final Map<Opcode, OperationHandler> handlers = new EnumMap<>(Opcode.class);
    private final AtomicInteger inFlight = new AtomicInteger();
    private volatile boolean closing;

    /**
     * Creates the dispatcher with the handler of every stream and admin operation.
     *
     * @param ctx the node's shared context
     */
    public RequestDispatcher(NodeContext ctx) {
        this.ctx = ctx;
        Router router = new Router(ctx);
        RuleGate gate = new RuleGate(ctx, router);
        handlers.put(Opcode.INSERT, new InsertHandler(ctx, router, gate));
        handlers.put(Opcode.SEARCH, new SearchHandler(ctx, router, gate));
        handlers.put(Opcode.DELETE, new DeleteHandler(ctx, router, gate));
        handlers.put(Opcode.TRAVERSE, new TraverseHandler(ctx, router, gate));
        handlers.put(Opcode.STATUS, new StatusHandler(ctx));
        handlers.put(Opcode.NODE_INFO, new NodeInfoHandler(ctx));
        handlers.put(Opcode.RULES_RELOAD, new RulesReloadHandler(ctx));
        if (ctx.logStore() != null) {
            handlers.put(Opcode.LOG_APPEND, new LogAppendHandler(ctx));
            handlers.put(Opcode.LOG_READ, new LogReadHandler(ctx));
        }
        if (ctx.backups() != null) {
            handlers.put(Opcode.BACKUP_APPLY, new BackupApplyHandler(ctx));
        }
    }

    /**
     * Accepts one request frame; never blocks.
     *
     * @param frame the request
     * @param sink  where its response goes
     */
    public void accept(Frame frame, ReplySink sink) {
        String problem = check(frame);
        if (problem != null) {
            Status status = closing ? Status.SHUTTING_DOWN
                    : frame.version() != Frame.PROTOCOL_VERSION ? Status.UNSUPPORTED_VERSION
                    : frame.isResponse() ? Status.MALFORMED : Status.UNKNOWN_OPCODE;
            ctx.metrics().error();
            sink.send(frame.response(Responses.error(status, problem)));
            return;
        }
        long arrived = System.nanoTime();
        Request request = new Request(ctx.nodeId(), frame, sink, arrived, this::replied);
        inFlight.incrementAndGet();
        if (frame.op() == Opcode.LOG_APPEND) {
            run(request);
            return;
        }
        if (!ctx.queue().offer(() -> run(request))) {
            ctx.metrics().overloaded();
            request.replyError(Status.OVERLOADED, "node " + ctx.nodeId() + " is overloaded: its request queue is full ("
                    + ctx.queue().capacity() + " waiting, queue.capacity); retry later or on another node");
        }
    }

    private String check(Frame frame) {
        if (closing) {
            return "node " + ctx.nodeId() + " is shutting down";
        }
        if (frame.version() != Frame.PROTOCOL_VERSION) {
            return "frame of protocol version " + frame.version() + "; node " + ctx.nodeId() + " speaks version "
                    + Frame.PROTOCOL_VERSION;
        }
        if (frame.isResponse()) {
            return "a response frame was sent as a request";
        }
        Opcode op = frame.op();
        if (op == null || !handlers.containsKey(op)) {
            return "opcode " + frame.opcode() + " is not known to node " + ctx.nodeId() + " (protocol version "
                    + Frame.PROTOCOL_VERSION + ")";
        }
        return null;
    }

    private void run(Request request) {
        ctx.metrics().queueWait(request.start());
        try {
            handlers.get(request.frame().op()).handle(request);
        } catch (ProtocolException e) {
            request.replyError(e.status(), e.getMessage());
        } catch (StoreException e) {
            LOG.error("{}: store failure", ctx.nodeId(), e);
            request.replyError(Status.INTERNAL_ERROR, "store failure on node " + ctx.nodeId() + ": " + e.getMessage());
        } catch (RuntimeException e) {
            LOG.error("{}: {} failed", ctx.nodeId(), request.frame(), e);
            request.replyError(Status.INTERNAL_ERROR, "node " + ctx.nodeId() + " failed: " + e);
        }
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
        return NodeInfoHandler.selfStatus(ctx);
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
