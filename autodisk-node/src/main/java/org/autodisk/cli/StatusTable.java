package org.autodisk.cli;

import java.util.Map;
import org.autodisk.core.Keys;
import org.autodisk.core.cluster.ClusterStatus;
import org.autodisk.core.cluster.MetricNames;
import org.autodisk.core.cluster.NodeStatus;
import org.autodisk.core.cluster.RangeStatus;

/** Renders a cluster map as text tables. */
final class StatusTable {

    private StatusTable() {
    }

    static String render(ClusterStatus s) {
        StringBuilder b = new StringBuilder();
        b.append("cluster map v").append(s.mapVersion()).append(" (").append(s.directory())
                .append(" directory), reported by ").append(s.reportedBy()).append('\n');
        b.append(String.format("%-6s %-5s %-22s %-11s %-9s %-9s %10s %12s %s%n", "NODE", "ROLE", "ADDRESS", "STATE",
                "META", "HEARD", "STREAMS", "REQUESTS", "QUEUE p50 / p99"));
        for (NodeStatus n : s.nodes()) {
            Map<String, Double> m = n.metrics();
            b.append(String.format("%-6s %-5s %-22s %-11s %-9s %-9s %10d %12.0f %9s / %s%n", n.id(), n.role(),
                    n.address(), state(n), n.reachable() ? n.metadata().getOrDefault("role", "-") : "-",
                    heard(n, s.reportedBy()), n.streamCount(), m.getOrDefault(MetricNames.REQUESTS, 0.0),
                    duration(m.getOrDefault(MetricNames.p50(MetricNames.QUEUE_WAIT), 0.0)),
                    duration(m.getOrDefault(MetricNames.p99(MetricNames.QUEUE_WAIT), 0.0))));
        }
        b.append(String.format("%-6s %-20s %-20s %-6s %-6s %-4s %-7s %-9s %s%n", "RANGE", "FROM (incl)",
                "TO (excl)", "OWNER", "EPOCH", "GEN", "BACKUP", "LOG", "BACKUP LAG"));
        for (RangeStatus r : s.ranges()) {
            String low = r.low().length == 0 ? "-inf" : Keys.render(r.low());
            b.append(String.format("%-6d %-20s %-20s %-6s %-6d %-4d %-7s %-9s %s%n", r.id(), low,
                    Keys.render(r.high()), r.owner(), r.epoch(), r.generation(), r.backup() == null ? "-" : r.backup(),
                    r.logNodes() == null || r.logNodes().isEmpty() ? "-" : String.join(",", r.logNodes()),
                    r.backupLag() < 0 ? "-" : r.backupLag() + " entries"));
        }
        b.append(AdminTables.underReplicated(s.ranges()));
        return b.toString();
    }

    /** How long ago the reporting node last heard from a node: {@code -} for itself or never. */
    private static String heard(NodeStatus n, String reporter) {
        return n.id().equals(reporter) || n.lastHeardMs() < 0 ? "-" : duration(n.lastHeardMs() * 1000.0) + " ago";
    }

    /**
     * Tells whether the node that reported a status can serve: it knows the cluster's ranges from the metadata.
     *
     * @param s the status, as the node asked reported it
     * @return {@code null} if healthy, else why not
     */
    static String unhealthy(ClusterStatus s) {
        NodeStatus self = s.nodes().stream().filter(n -> n.id().equals(s.reportedBy())).findFirst().orElse(null);
        String replica = self == null ? "unknown" : self.metadata().getOrDefault("role", "unknown");
        if (s.ranges().isEmpty()) {
            return "node " + s.reportedBy() + " does not know the cluster's ranges: its metadata replica (" + replica
                    + ") has no cluster metadata yet";
        }
        return null;
    }

    /**
     * Renders a duration in the unit that keeps it short: {@code 850 us}, {@code 12.3 ms}, {@code 4.21 s}.
     *
     * @param micros the duration in microseconds
     * @return at most 9 characters for durations under 10,000 s
     */
    static String duration(double micros) {
        if (micros < 1_000) {
            return String.format("%.0f us", micros);
        } else if (micros < 1_000_000) {
            return String.format("%.1f ms", micros / 1e3);
        }
        return String.format("%.2f s", micros / 1e6);
    }

    private static String state(NodeStatus n) {
        if (!n.state().isEmpty() && !"up".equals(n.state())) {
            return n.state();
        }
        if (!n.reachable()) {
            return "unreachable";
        }
        return n.metrics().getOrDefault(MetricNames.WAL_DEGRADED, 0.0) > 0 ? "degraded" : "up";
    }
}
