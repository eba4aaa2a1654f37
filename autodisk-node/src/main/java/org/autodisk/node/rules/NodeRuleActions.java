package org.autodisk.node.rules;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.autodisk.node.metrics.NodeMetrics;
import org.autodisk.rules.NodeActions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What rules make a node do besides deciding requests (which they do through the global {@code verdict}): alerts
 * (logged at most once per rule and interval, all counted), backup catch-ups (picked up by the log node's catch-up
 * loop), range splits (picked up by the data node's range checks) and migrations (not available yet: an alert).
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
    public void startMigration(int rangeId, String target) {
        alert("startMigration", "a rule asked to move range " + rangeId + " to " + target
                + "; range migration is not available in this version");
    }
}
