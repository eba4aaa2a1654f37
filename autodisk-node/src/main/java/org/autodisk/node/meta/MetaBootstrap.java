package org.autodisk.node.meta;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The creation of a cluster's metadata from its configuration, once: every voter proposes the same bootstrap
 * command until the cluster exists (the first to commit applies, the others are refused). Every node then compares
 * its configuration with what the cluster was created from and warns about differences: the stored metadata wins.
 */
public final class MetaBootstrap implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MetaBootstrap.class);
    private static final long PERIOD_MS = 300;

    private final String nodeId;
    private final Metadata metadata;
    private final MetaCommand.Bootstrap command;
    private final ScheduledExecutorService timer;
    private final AtomicBoolean proposing = new AtomicBoolean();
    private final AtomicBoolean checked = new AtomicBoolean();

    private MetaBootstrap(String nodeId, Metadata metadata, MetaCommand.Bootstrap command) {
        this.nodeId = nodeId;
        this.metadata = metadata;
        this.command = command;
        this.timer = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().name(nodeId + "-meta-bootstrap")
                .daemon().factory());
    }

    /**
     * Builds the command that creates a cluster: ranges at the split points (or split evenly by the first key byte),
     * range {@code i} owned by data node {@code i mod n} and backed up on the next one, every range at epoch and
     * generation 1.
     *
     * @param directory   the directory kind
     * @param members     every member, up
     * @param dataNodes   the data nodes in configuration order
     * @param splitPoints sorted split points, empty for the even split
     * @param logNodesOf  the log nodes of each data node
     * @return the command
     */
    public static MetaCommand.Bootstrap command(String directory, List<Member> members, List<String> dataNodes,
            List<byte[]> splitPoints, Function<String, List<String>> logNodesOf) {
        return command(directory, 0, members, dataNodes, splitPoints, logNodesOf);
    }

    /**
     * Builds the command that creates a cluster, as {@link #command(String, List, List, List, Function)} does, with
     * the Fat-Btree's fanout recorded in the creation: every node runs the fanout the cluster was created with.
     *
     * @param directory   the directory kind
     * @param fanout      {@code directory.fanout} under the Fat-Btree, 0 under the range map
     * @param members     every member, up
     * @param dataNodes   the data nodes in configuration order
     * @param splitPoints sorted split points, empty for the even split
     * @param logNodesOf  the log nodes of each data node
     * @return the command
     */
    public static MetaCommand.Bootstrap command(String directory, int fanout, List<Member> members,
            List<String> dataNodes, List<byte[]> splitPoints, Function<String, List<String>> logNodesOf) {
        List<byte[]> points = splitPoints.isEmpty() ? evenSplit(dataNodes.size()) : splitPoints;
        List<RangeDescriptor> ranges = new ArrayList<>();
        byte[] low = new byte[0];
        int n = dataNodes.size();
        for (int i = 0; i <= points.size(); i++) {
            byte[] high = i < points.size() ? points.get(i) : null;
            String owner = dataNodes.get(i % n);
            List<String> backups = n > 1 ? List.of(dataNodes.get((i + 1) % n)) : List.of();
            ranges.add(new RangeDescriptor(i, low, high, owner, backups, logNodesOf.apply(owner), 1, 1,
                    RangeState.SERVING));
            low = high;
        }
        return new MetaCommand.Bootstrap(directory, members, ranges, new MetaState.Creation(dataNodes,
                splitPoints.stream().map(p -> HexFormat.of().formatHex(p)).toList(), fanout));
    }

    private static List<byte[]> evenSplit(int n) {
        List<byte[]> points = new ArrayList<>();
        for (int i = 1; i < n; i++) {
            points.add(new byte[] {(byte) (i * 256 / n)});
        }
        return points;
    }

    /**
     * Starts: a voter proposes the bootstrap until the cluster exists; every node checks its configuration once.
     *
     * @param nodeId   this node
     * @param metadata its metadata
     * @param command  the bootstrap its configuration gives
     * @param voter    whether it votes
     * @return the running bootstrap; close it to stop proposing
     */
    public static MetaBootstrap start(String nodeId, Metadata metadata, MetaCommand.Bootstrap command,
            boolean voter) {
        MetaBootstrap b = new MetaBootstrap(nodeId, metadata, command);
        metadata.subscribe(b::seen);
        if (voter && !b.checked.get()) {
            try {
                b.timer.scheduleWithFixedDelay(b::propose, 0, PERIOD_MS, TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.RejectedExecutionException e) {
                // the cluster exists already (seen on another thread meanwhile): nothing to propose
            }
        }
        return b;
    }

    private void propose() {
        if (metadata.current().bootstrapped() || !proposing.compareAndSet(false, true)) {
            return;
        }
        metadata.submit(command, Duration.ofSeconds(5)).whenComplete((r, e) -> {
            proposing.set(false);
            if (r != null && r.applied()) {
                LOG.info("{}: created the cluster metadata: {} ranges over {}", nodeId, command.ranges().size(),
                        command.created().dataNodes());
            } else if (e != null) {
                LOG.debug("{}: bootstrap proposal not committed yet: {}", nodeId, e.getMessage());
            }
        });
    }

    private void seen(MetaState s) {
        if (!s.bootstrapped() || !checked.compareAndSet(false, true)) {
            return;
        }
        timer.shutdown();
        List<String> differences = differences(s, command);
        if (!differences.isEmpty()) {
            LOG.warn("{}: the configuration differs from what the cluster was created with; the stored metadata "
                    + "wins: {}", nodeId, String.join("; ", differences));
        }
    }

    /**
     * Compares what a cluster was created with and what a configuration would create. Data nodes that joined the
     * cluster later are left out on both sides (the metadata has them, a configuration may or may not).
     *
     * @param s       the stored metadata
     * @param command the bootstrap of the configuration
     * @return the differences, each naming the setting; empty if they agree
     */
    public static List<String> differences(MetaState s, MetaCommand.Bootstrap command) {
        List<String> out = new ArrayList<>();
        Set<String> joined = new HashSet<>(s.members().stream().filter(m -> "data".equals(m.role())
                && !s.created().dataNodes().contains(m.id())).map(Member::id).toList());
        List<String> configuredData = command.created().dataNodes().stream().filter(d -> !joined.contains(d))
                .toList();
        if (!s.created().dataNodes().equals(configuredData)) {
            out.add("data nodes: created with " + s.created().dataNodes() + ", configured "
                    + configuredData);
        }
        if (!s.created().splitPoints().equals(command.created().splitPoints())) {
            out.add("cluster.split-points (hex): created with " + s.created().splitPoints() + ", configured "
                    + command.created().splitPoints());
        }
        if (!s.directory().equals(command.directory())) {
            out.add("cluster.directory: created " + s.directory() + ", configured " + command.directory());
        } else if (s.created().fanout() > 0 && command.created().fanout() > 0
                && s.created().fanout() != command.created().fanout()) {
            out.add("directory.fanout: created with " + s.created().fanout() + ", configured "
                    + command.created().fanout());
        }
        List<String> stored = s.members().stream().filter(m -> !joined.contains(m.id()))
                .map(m -> m.id() + "=" + m.role() + "@" + m.address()).toList();
        List<String> configured = command.members().stream().filter(m -> !joined.contains(m.id()))
                .map(m -> m.id() + "=" + m.role() + "@" + m.address()).toList();
        if (!stored.equals(configured)) {
            out.add("cluster.nodes: the metadata has " + stored + ", configured " + configured);
        }
        return out;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
