package org.autodisk.node.ops;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.core.protocol.Trace;
import org.autodisk.core.protocol.TraceHop;

/**
 * One request inside a node, from arrival to its single reply. Keeps the timings of its components; if the
 * request asked for a trace, the reply carries them as this node's hop.
 */
public final class Request {

    private final String nodeId;
    private final Frame frame;
    private final ReplySink sink;
    private final long arrivedNanos;
    private final AtomicBoolean replied = new AtomicBoolean();
    private final Map<String, Long> components;
    private final ReplyListener onReply;
    private volatile long startedNanos;
    private volatile String action = "local";
    private volatile int reroutes;

    Request(String nodeId, Frame frame, ReplySink sink, long arrivedNanos, ReplyListener onReply) {
        this.nodeId = nodeId;
        this.frame = frame;
        this.sink = sink;
        this.arrivedNanos = arrivedNanos;
        this.onReply = onReply;
        this.components = frame.isTraced() ? new LinkedHashMap<>() : null;
    }

    /**
     * Returns the request frame.
     *
     * @return the frame as received
     */
    public Frame frame() {
        return frame;
    }

    /**
     * Counts one more routing of this request after a STALE_MAP answer.
     *
     * @return how many times it was routed again, this one included
     */
    public int reroute() {
        return ++reroutes;
    }

    /**
     * Returns the handle rules see for this request: the node and the frame's request id.
     *
     * @return e.g. {@code d1#42}
     */
    public String id() {
        return nodeId + "#" + frame.requestId();
    }

    /**
     * Marks the start of work and returns how long the request waited in the queue.
     *
     * @return queue wait in nanoseconds
     */
    long start() {
        startedNanos = System.nanoTime();
        long wait = startedNanos - arrivedNanos;
        component("queue", wait);
        return wait;
    }

    /**
     * Returns the time since the request arrived.
     *
     * @return nanoseconds
     */
    long age() {
        return System.nanoTime() - arrivedNanos;
    }

    /**
     * Names what this node did, for the trace.
     *
     * @param what e.g. {@code store}, {@code forward}
     */
    public void action(String what) {
        this.action = what;
    }

    /**
     * Records the duration of one component, for the trace.
     *
     * @param name  component name
     * @param nanos its duration
     */
    public void component(String name, long nanos) {
        if (components != null) {
            synchronized (components) {
                components.merge(name, nanos, Long::sum);
            }
        }
    }

    /**
     * Replies with a body built here.
     *
     * @param body the response body
     */
    public void reply(byte[] body) {
        send(body, false);
    }

    /**
     * Replies with an error.
     *
     * @param status  the status
     * @param message what went wrong, naming the limit or node
     */
    public void replyError(Status status, String message) {
        send(Responses.error(status, message), false);
    }

    /**
     * Relays a downstream node's response as this request's reply.
     *
     * @param downstream the response from the node this request was forwarded to
     */
    public void relay(Frame downstream) {
        send(downstream.body(), downstream.isTraced());
    }

    private void send(byte[] body, boolean hasTrailer) {
        if (!replied.compareAndSet(false, true)) {
            return;
        }
        byte[] out = body;
        if (components != null) {
            component("total", age());
            out = Trace.append(body, hasTrailer, hop());
        } else if (hasTrailer) {
            out = Trace.strip(body);
        }
        onReply.replied(age(), out.length > 0 && out[0] != 0);
        sink.send(frame.response(out));
    }

    private TraceHop hop() {
        synchronized (components) {
            return new TraceHop(nodeId, action, components);
        }
    }

    /**
     * Tells whether the reply was sent.
     *
     * @return true after the reply
     */
    public boolean isReplied() {
        return replied.get();
    }
}
