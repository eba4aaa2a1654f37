package org.autodisk.node.rules;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.autodisk.core.cluster.ClusterStatus;
import org.autodisk.core.cluster.MetricNames;
import org.autodisk.core.cluster.NodeStatus;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.peer.PeerChannel;
import org.autodisk.rules.LoadReport;
import org.autodisk.node.wire.PeerOp;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Feeds the load rules: every period it reads the request count of every data node (its own, and the others'
 * through NODE_INFO), turns the change since the last period into a rate and hands each node's
 * {@link LoadReport} to the rules, which compare the nodes (load.drl).
 */
public final class LoadReports implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LoadReports.class);
    private static final long ASK_TIMEOUT_MS = 500;

    private final String selfId;
    private final Supplier<List<String>> dataNodes;
    private final PeerChannel peers;
    private volatile Supplier<NodeStatus> self;
    private final NodeRules rules;
    private final Map<String, long[]> previous = new HashMap<>();
    private final ScheduledExecutorService timer;

    /**
     * Creates the reports; {@link #start} schedules them.
     *
     * @param selfId    this data node
     * @param dataNodes every data node now (the cluster's data nodes change when one joins)
     * @param peers     the peer channel
     * @param rules     the rules to report to
     */
    public LoadReports(String selfId, Supplier<List<String>> dataNodes, PeerChannel peers, NodeRules rules) {
        this.selfId = selfId;
        this.dataNodes = dataNodes;
        this.peers = peers;
        this.rules = rules;
        this.timer = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().name(selfId + "-load")
                .daemon().factory());
    }

    /**
     * Reports every {@code periodMs}.
     *
     * @param periodMs  the period
     * @param selfFigures this node's own figures
     */
    public void start(long periodMs, Supplier<NodeStatus> selfFigures) {
        this.self = selfFigures;
        timer.scheduleWithFixedDelay(this::tick, periodMs, periodMs, TimeUnit.MILLISECONDS);
    }

    /** Gathers every data node's figures once and reports those seen twice. */
    void tick() {
        try {
            for (String node : dataNodes.get()) {
                NodeStatus status = node.equals(selfId) ? self.get() : ask(node).join();
                if (status != null && status.reachable()) {
                    report(status, System.nanoTime());
                }
            }
        } catch (RuntimeException e) {
            LOG.debug("{}: load report skipped: {}", selfId, e.toString());
        }
    }

    private void report(NodeStatus status, long now) {
        long requests = status.metrics().getOrDefault(MetricNames.REQUESTS, 0.0).longValue();
        long[] before = previous.put(status.id(), new long[] {requests, now});
        if (before == null || now <= before[1]) {
            return;
        }
        double rate = (requests - before[0]) * 1e9 / (now - before[1]);
        int depth = status.metrics().getOrDefault(MetricNames.QUEUE_DEPTH, 0.0).intValue();
        rules.observe(new LoadReport(status.id(), rate, (int) Math.min(Integer.MAX_VALUE, status.streamCount()),
                depth));
    }

    private CompletableFuture<NodeStatus> ask(String node) {
        return peers.send(node, PeerOp.NODE_INFO.request(new byte[] {PeerOp.BRIEF}))
                .thenApply(LoadReports::parse)
                .completeOnTimeout(null, ASK_TIMEOUT_MS, TimeUnit.MILLISECONDS)
                .exceptionally(e -> null);
    }

    private static NodeStatus parse(Frame resp) {
        if (Responses.status(resp.body()) != Status.OK) {
            return null;
        }
        return ClusterStatus.read(Responses.parseBytes(resp.body()), NodeStatus.class);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
