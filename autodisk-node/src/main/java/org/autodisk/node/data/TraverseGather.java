package org.autodisk.node.data;

import java.util.ArrayList;
import java.util.List;
import org.autodisk.core.Keys;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.KeyValue;
import org.autodisk.core.protocol.Opcode;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.core.protocol.TraverseRequest;
import org.autodisk.core.protocol.TraverseResult;
import org.autodisk.node.directory.Placement;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.ops.Guard;
import org.autodisk.node.ops.NodeContext;
import org.autodisk.node.ops.Request;
import org.autodisk.rules.Decision;
import org.autodisk.rules.TraverseRequested;

/**
 * One traverse in progress: walks the ranges from a cursor and lets the rules decide each: read a local
 * range from the store, or forward to its owner (one sub-request per range, resumed while a page was cut),
 * until the limit, the end key, the end of the key space or the response budget is reached. Remote pages
 * continue on a worker. A directory that knows only the next hop (the Fat-Btree) cannot bound the sub-request by the
 * range's end: a node that was forwarded a traverse and read its own ranges answers with a resume key where the next
 * range is another node's, so the node the client asked goes on from there and the hops never pile up.
 */
final class TraverseGather {

    private final NodeContext ctx;
    private final Serving serving;
    private final Request request;
    private final byte[] end;
    private final List<KeyValue> out = new ArrayList<>();
    private byte[] cursor;
    private int remaining;
    private long bytes;
    /** Whether this node read a range of its own for this request (a forwarded walk then hands the rest back). */
    private boolean scanned;

    TraverseGather(Serving serving, Request request, TraverseRequest req) {
        this.ctx = serving.ctx();
        this.serving = serving;
        this.request = request;
        this.end = req.toExclusive();
        this.cursor = req.from();
        this.remaining = req.limit();
    }

    void run() {
        while (cursor != null && remaining > 0 && !pastEnd()) {
            if (!out.isEmpty() && bytes >= ctx.maxResponseBytes()) {
                finish(cursor);
                return;
            }
            Placement placement = serving.locate(cursor);
            byte[] stop = stopFor(placement);
            Decision decision = decide(placement, stop);
            if (decision == null) {
                return;
            }
            if (decision.kind() == Decision.Kind.FORWARD) {
                if (scanned && request.frame().hops() > 0) {
                    finish(cursor);
                } else {
                    askOwner(placement, stop);
                }
                return;
            }
            if (!serving.rangeReady(request, placement.rangeId(), cursor, this::run)) {
                return; // the walk goes on from the cursor once the range's log is replayed here
            }
            long t0 = System.nanoTime();
            scanned = true;
            add(serving.services().store().scan(cursor, stop, remaining, ctx.maxResponseBytes() - bytes), stop);
            request.component("store", System.nanoTime() - t0);
        }
        finish(null);
    }

    private Decision decide(Placement placement, byte[] stop) {
        TraverseRequested event = new TraverseRequested(request.id(), RuleGate.text(cursor),
                stop == null ? "" : RuleGate.text(stop), placement.servedHere(), placement.rangeId(),
                request.frame().hops());
        return serving.gate().decide(request, event, placement);
    }

    private boolean pastEnd() {
        return end != null && Keys.compare(cursor, end) >= 0;
    }

    /** Where this step of the walk stops: the end of the key's range, or the end if the range is unknown here. */
    private byte[] stopFor(Placement placement) {
        RangeDescriptor range = placement.range();
        if (range == null || range.high() == null) {
            return end;
        }
        return end == null || Keys.compare(range.high(), end) < 0 ? range.high() : end;
    }

    private void askOwner(Placement placement, byte[] stop) {
        Frame sub = Frame.request(Opcode.TRAVERSE, 0, new TraverseRequest(cursor, stop, remaining).encode())
                .routed(placement.stamp());
        serving.router().forward(request, placement.nextHop(), sub, () -> "traverse from " + Keys.render(cursor))
                .thenAccept(resp -> ctx.queue().execute(() -> Guard.run(ctx.nodeId(), r -> continueWith(resp, stop),
                        request)));
    }

    private void continueWith(Frame resp, byte[] stop) {
        if (serving.routes().rerouted(request, resp, () -> Guard.run(ctx.nodeId(), r -> run(), request))) {
            return;
        }
        if (Responses.status(resp.body()) != Status.OK) {
            request.relay(resp);
            return;
        }
        add(Responses.parseTraverse(resp.body()), stop);
        run();
    }

    private void add(TraverseResult page, byte[] stop) {
        for (KeyValue kv : page.entries()) {
            out.add(kv);
            bytes += kv.key().length + kv.value().length;
        }
        remaining -= page.entries().size();
        cursor = page.resumeKey() != null ? page.resumeKey() : stop;
    }

    private void finish(byte[] resumeKey) {
        boolean more = resumeKey != null && remaining > 0 && (end == null || Keys.compare(resumeKey, end) < 0);
        request.reply(Responses.traverseResult(new TraverseResult(out, more ? resumeKey : null)));
    }
}
