package org.autodisk.node.ledger;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A ledger writer's book of its appends and of its lease (see {@link LedgerWriter#leased}): which appends each log
 * node has not answered (by sequence number, with when they were sent), for the answer deadlines; and per log node
 * when the latest request it took without finding the ledger fenced was sent. The lease lasts {@code lease} from the
 * oldest of those over the last fragment's ensemble, and only while the writer is open. Guarded by the writer's lock,
 * except {@link #leased}, which reads one volatile field.
 */
final class AppendBook {

    private final long leaseNanos;
    private final boolean off;
    private final Map<String, ArrayDeque<Long>> outstanding = new HashMap<>();
    private final Map<Long, Long> sentAt = new HashMap<>();
    private final Map<String, Long> confirmedAt = new HashMap<>();
    private long appendsSent;
    private long sweepMark;
    /** Until when (timer nanos) the writer holds its lease; {@code null}: not now. */
    private volatile Long until;

    AppendBook(Duration lease) {
        this.leaseNanos = lease.toNanos();
        this.off = lease.isZero();
    }

    /** An append goes to a node now; returns its sequence number. */
    long sent(String node, long now) {
        long seq = ++appendsSent;
        outstanding.computeIfAbsent(node, n -> new ArrayDeque<>()).add(seq);
        sentAt.put(seq, now);
        return seq;
    }

    /**
     * An append was answered: returns when it was sent, or {@code null} if it timed out or its ensemble changed
     * since (its answer then counts for nothing but the entries it holds).
     */
    Long answered(String node, long seq) {
        ArrayDeque<Long> out = outstanding.get(node);
        boolean live = out != null && out.remove(seq);
        Long at = sentAt.remove(seq);
        return live ? at : null;
    }

    /** Marks the appends sent so far: the next {@link #overdue} fails a node with one of them unanswered. */
    void mark() {
        sweepMark = appendsSent;
    }

    /** The nodes whose oldest unanswered append was sent before the last mark; they are forgotten. */
    List<String> overdue() {
        List<String> late = new ArrayList<>();
        for (Map.Entry<String, ArrayDeque<Long>> e : outstanding.entrySet()) {
            if (!e.getValue().isEmpty() && e.getValue().peekFirst() <= sweepMark) {
                e.getValue().forEach(sentAt::remove);
                e.getValue().clear();
                late.add(e.getKey());
            }
        }
        return late;
    }

    boolean anyOutstanding() {
        return outstanding.values().stream().anyMatch(q -> !q.isEmpty());
    }

    /** A new fragment: appends sent before it count no more; only its nodes' confirmations are kept. */
    void newEnsemble(List<String> ensemble) {
        outstanding.clear();
        sentAt.clear();
        confirmedAt.keySet().retainAll(ensemble);
    }

    boolean leased(long now) {
        Long u = until;
        return u != null && (off || now - u < 0);
    }

    void confirmed(String node, long sent) {
        confirmedAt.merge(node, sent, Math::max);
    }

    List<String> toRenew(List<String> ensemble, long now, long renewNanos) {
        return off ? List.of() : ensemble.stream().filter(n -> {
            Long at = confirmedAt.get(n);
            return at == null || now - at >= renewNanos;
        }).toList();
    }

    /** Recomputes the lease: none unless the writer is open and every node of the ensemble confirmed it. */
    void refresh(boolean open, List<String> ensemble) {
        Long oldest = null;
        for (String n : ensemble) {
            Long at = confirmedAt.get(n);
            if (at == null && !off) {
                until = null;
                return;
            }
            oldest = at == null || oldest != null && oldest - at < 0 ? oldest : at;
        }
        until = !open ? null : off ? Long.valueOf(0) : Long.valueOf(oldest + leaseNanos);
    }
}
