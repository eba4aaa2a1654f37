package org.autodisk.node.data;

import java.util.function.Function;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.ops.Request;
import org.autodisk.node.peer.PeerException;
import org.autodisk.node.rangelog.WriteAheadLog;
import org.autodisk.node.store.StoreException;
import org.autodisk.rules.Decision;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A change on its owner, through the write-ahead log: written to its range's ledger on the log nodes first, and
 * applied (in entry order) and answered only once the ledger's ack quorum holds it; in a cluster without log nodes
 * applied at once.
 */
final class LoggedWrite {

    private static final Logger LOG = LoggerFactory.getLogger(LoggedWrite.class);

    private LoggedWrite() {
    }

    /**
     * Writes and replies.
     *
     * @param handler  the operation (its data node, and where a write whose range moved away is taken again)
     * @param request  the request
     * @param range    the key's range (owned here)
     * @param op       PUT or DELETE
     * @param key      the key
     * @param value    the value (empty for DELETE)
     * @param decision the rules' decision, with the log multiplicity
     * @param reply    builds the reply body from the store's answer (created / existed)
     */
    static void write(KeyedOperation<?> handler, Request request, RangeDescriptor range, int op, byte[] key,
            byte[] value, Decision decision, Function<Boolean, byte[]> reply) {
        Serving s = handler.serving;
        if (!s.gate().multiplicityPossible(request, decision, key)) {
            return;
        }
        WriteAheadLog wal = s.services().wal();
        int m = decision.logMultiplicity();
        boolean logged = !wal.logNodes().isEmpty();
        request.action(!logged ? "store" : m > 1 ? "log x" + m + "+store" : "log+store");
        long t0 = System.nanoTime();
        wal.log(range.id(), range.epoch(), op, key, value, m, applied -> {
            if (logged) {
                request.component("log", applied.durableNanos() - t0);
            }
            request.component("store", System.nanoTime() - applied.durableNanos());
            request.reply(reply.apply(applied.changed()));
        }, failure -> {
            if (failure instanceof WriteAheadLog.MovedAway && request.reroute() <= RouteCheck.MAX_REROUTES) {
                handler.again(request);
            } else {
                failed(s, request, failure);
            }
        });
    }

    private static void failed(Serving s, Request request, RuntimeException failure) {
        String id = s.ctx().nodeId();
        if (failure instanceof StoreException e) {
            LOG.error("{}: applying a durable change failed", id, e);
            request.replyError(Status.INTERNAL_ERROR, "store failure on node " + id + ": " + e.getMessage());
        } else {
            request.replyError(failure instanceof PeerException pe ? pe.status() : Status.NODE_UNAVAILABLE,
                    failure.getMessage());
        }
    }
}
