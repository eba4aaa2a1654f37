package org.autodisk.node.shipping;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.autodisk.core.protocol.Frame;
import org.autodisk.node.wire.LogBatch;
import org.autodisk.node.wire.LogReadRequest;
import org.autodisk.node.wire.LogRecord;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.peer.PeerChannel;
import org.autodisk.node.store.LocalStore;
import org.autodisk.node.wire.PeerOp;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings a data node's store up to its log before the node serves: everything after the store's applied LSN
 * is read from the log node that holds the most and applied in LSN order.
 */
public final class LogRecovery {

    private static final Logger LOG = LoggerFactory.getLogger(LogRecovery.class);
    private static final int PAGE = 10_000;

    private final String selfId;
    private final List<String> logNodes;
    private final PeerChannel peers;
    private final LocalStore store;

    /**
     * Creates a recovery.
     *
     * @param selfId   this data node (its stream at the log nodes)
     * @param logNodes its log nodes
     * @param peers    the peer channel
     * @param store    the store to bring up to date
     */
    public LogRecovery(String selfId, List<String> logNodes, PeerChannel peers, LocalStore store) {
        this.selfId = selfId;
        this.logNodes = logNodes;
        this.peers = peers;
        this.store = store;
    }

    /**
     * Replays the log into the store.
     *
     * @param timeout how long to wait for a log node to answer
     * @return the highest LSN any log node holds for this data node (the next LSN to assign is one more)
     * @throws IllegalStateException if no log node answered in time
     */
    public long run(Duration timeout) {
        long applied = store.appliedLsn();
        Map<String, Long> last = lastLsns(applied, timeout);
        String source = last.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
        long target = last.get(source);
        LOG.info("{}: recovery: store applied up to LSN {}; log nodes hold up to {}", selfId, applied, last);
        long t0 = System.nanoTime();
        long replayed = replay(source, applied + 1, target);
        double seconds = Math.max(1e-9, (System.nanoTime() - t0) / 1e9);
        LOG.info("{}: recovery: replayed {} records (LSN {}..{}) from {} in {} ms ({} records/s)", selfId, replayed,
                applied + 1, target, source, Math.round(seconds * 1000), Math.round(replayed / seconds));
        return Math.max(applied, target);
    }

    private Map<String, Long> lastLsns(long applied, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Map<String, Long> last = new LinkedHashMap<>();
            StringBuilder why = new StringBuilder();
            for (String node : logNodes) {
                try {
                    last.put(node, read(node, applied + 1, 0).lastLsn());
                } catch (RuntimeException e) {
                    why.append(node).append(": ").append(e.getMessage()).append("; ");
                }
            }
            if (!last.isEmpty()) {
                return last;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(selfId + ": no log node answered within " + timeout.toSeconds()
                        + " s, cannot recover (" + why + ")");
            }
            LOG.info("{}: recovery: waiting for a log node ({})", selfId, why);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
        }
    }

    private long replay(String source, long from, long target) {
        long count = 0;
        CompletableFuture<List<LogRecord>> nextPage = fetch(source, from, target);
        while (true) {
            List<LogRecord> page = nextPage.join();
            if (page.isEmpty()) {
                return count;
            }
            long next = page.get(page.size() - 1).lsn() + 1;
            nextPage = next <= target ? fetch(source, next, target) : CompletableFuture.completedFuture(List.of());
            store.applyAll(page);
            count += page.size();
        }
    }

    private CompletableFuture<List<LogRecord>> fetch(String source, long from, long target) {
        return CompletableFuture.supplyAsync(() -> read(source, from, PAGE).records().stream()
                .filter(r -> r.lsn() <= target).toList());
    }

    private LogBatch read(String node, long from, int max) {
        Frame resp;
        try {
            resp = peers.send(node, PeerOp.LOG_READ.request(new LogReadRequest(selfId, from, max).encode()))
                    .join();
        } catch (CompletionException e) {
            throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
        }
        if (Responses.status(resp.body()) != Status.OK) {
            throw new IllegalStateException(Responses.errorMessage(resp.body()));
        }
        return LogBatch.decode(resp.body(), 1);
    }
}
