package org.autodisk.node.rules;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.autodisk.node.metrics.NodeMetrics;
import org.autodisk.rules.NodeActions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What rules make a node do besides deciding requests (which they do through the global {@code verdict}): alerts
 * (logged at most once per rule and interval, all counted), backup catch-ups (picked up by the log node's catch-up
 * loop), range splits (picked up by the data node's range checks) and migrations (collected by the balancer: those
 * proposed during a balance round belong to it, the others wait for the next round).
 */
final class NodeRuleActions implements NodeActions {

    private static final Logger LOG = LoggerFactory.getLogger(NodeRuleActions.class);

    private final String nodeId;
    private final NodeMetrics metrics;
    private final long intervalNanos;
    private final Map<String, Long> lastLogged = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> suppressed = new ConcurrentHashMap<>();
    private final Set<String> catchUps = ConcurrentHashMap.newKeySet();
    private final Set<Integer> splits = ConcurrentHashMap.newKeySet();
    /** Proposals beyond this, made while no balancer takes them, drop the oldest. */
    private static final int MAX_PENDING = 64;

    private final ThreadLocal<List<MigrationProposal>> collecting = new ThreadLocal<>();
    private final ThreadLocal<FailoverDecision> failover = new ThreadLocal<>();
    private final Queue<MigrationProposal> pending = new ConcurrentLinkedQueue<>();

    NodeRuleActions(String nodeId, NodeMetrics metrics, long intervalMs) {
        this.nodeId = nodeId;
        this.metrics = metrics;
        this.intervalNanos = TimeUnit.MILLISECONDS.toNanos(intervalMs);
    }

    @Override
    public void alert(String rule, String message) {
        metrics.alert();
        long now = System.nanoTime();
        Long last = lastLogged.get(rule);
        if (last != null && now - last < intervalNanos) {
            suppressed.computeIfAbsent(rule, r -> new AtomicLong()).incrementAndGet();
            return;
        }
        lastLogged.put(rule, now);
        AtomicLong quiet = suppressed.get(rule);
        long hidden = quiet == null ? 0 : quiet.getAndSet(0);
        LOG.warn("{}: ALERT from rule '{}': {}{}", nodeId, rule, message,
                hidden == 0 ? "" : " (" + hidden + " more alerts of this rule since the last one logged)");
    }

    @Override
    public void catchUp(String stream) {
        catchUps.add(stream);
    }

    /**
     * Tells whether a rule asked to catch a stream's backup up, and forgets the request.
     *
     * @param stream the stream
     * @return true once per request
     */
    boolean takeCatchUp(String stream) {
        return catchUps.remove(stream);
    }

    @Override
    public void split(int rangeId) {
        splits.add(rangeId);
    }

    /**
     * Tells whether a rule asked to split a range, and forgets the request.
     *
     * @param rangeId the range
     * @return true once per request
     */
    boolean takeSplit(int rangeId) {
        return splits.remove(rangeId);
    }

    @Override
    public void startMigration(int rangeId, String target, String reason) {
        propose(new MigrationProposal(rangeId, target, reason));
    }

    @Override
    public void startMigrationOfUpperHalf(int rangeId, String target, String reason) {
        propose(new MigrationProposal(rangeId, target, reason, true));
    }

    @Override
    public void startBackupFill(int rangeId, String target, String reason) {
        propose(new MigrationProposal(rangeId, target, reason, false, true));
    }

    @Override
    public void startBackupMove(int rangeId, String from, String target, String reason) {
        propose(new MigrationProposal(rangeId, target, reason, false, true, from));
    }

    @Override
    public void promote(int rangeId, String reason) {
        failoverDecision("promote range " + rangeId).promote(rangeId, reason);
    }

    @Override
    public void dropBackup(int rangeId, String nodeId, String reason) {
        failoverDecision("drop backup " + nodeId + " of range " + rangeId).drop(rangeId, nodeId, reason);
    }

    @Override
    public void holdFailover(String nodeId, String reason) {
        failoverDecision("hold the failover of " + nodeId).hold(reason);
    }

    /** The failover evaluation under way on this thread; outside one, the action has no failed node to act on. */
    private FailoverDecision failoverDecision(String what) {
        FailoverDecision d = failover.get();
        if (d == null) {
            LOG.warn("{}: a rule asked to {} outside a NodeFailed evaluation; ignored", nodeId, what);
            return new FailoverDecision();
        }
        return d;
    }

    /**
     * Evaluates a failed node's event with what the rules ask for it collected apart.
     *
     * @param evaluation what to evaluate
     * @return the rules' decision
     */
    FailoverDecision collectFailover(Runnable evaluation) {
        FailoverDecision d = new FailoverDecision();
        failover.set(d);
        try {
            evaluation.run();
        } finally {
            failover.remove();
        }
        return d;
    }

    private void propose(MigrationProposal p) {
        List<MigrationProposal> round = collecting.get();
        if (round != null) {
            round.add(p);
            return;
        }
        if (pending.size() >= MAX_PENDING) {
            pending.poll();
        }
        pending.add(p);
    }

    /**
     * Evaluates something with the migrations rules propose meanwhile on this thread collected apart.
     *
     * @param evaluation what to evaluate
     * @return the migrations proposed during it
     */
    List<MigrationProposal> collect(Runnable evaluation) {
        List<MigrationProposal> round = new ArrayList<>();
        collecting.set(round);
        try {
            evaluation.run();
        } finally {
            collecting.remove();
        }
        return round;
    }

    /**
     * Returns the migrations rules proposed on other events since the last call, and forgets them.
     *
     * @return the proposals, oldest first
     */
    List<MigrationProposal> takePending() {
        List<MigrationProposal> out = new ArrayList<>();
        for (MigrationProposal p = pending.poll(); p != null; p = pending.poll()) {
            out.add(p);
        }
        return out;
    }
}
