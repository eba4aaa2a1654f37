package org.autodisk.rules;

import java.util.List;

/**
 * What the balance rules decide on, gathered once per round by one data node: every data node's load, every range's
 * size, and how many migrations are under way. Rules match its parts with {@code from}:
 * {@code ClusterLoad( $nodes : nodes ) ... NodeLoad( ... ) from $nodes}.
 *
 * @param nodes        every data node
 * @param ranges       every range
 * @param migrations   the migrations under way
 * @param averageBytes the average bytes of the data nodes whose figures are known
 * @param averageRequestsPerSecond the average request rate of the data nodes whose rate is known
 */
public record ClusterLoad(List<NodeLoad> nodes, List<RangeLoad> ranges, int migrations, long averageBytes,
        double averageRequestsPerSecond) {

    /** Copies the lists. */
    public ClusterLoad {
        nodes = List.copyOf(nodes);
        ranges = List.copyOf(ranges);
    }

    /**
     * Gathers a round's facts, computing the average.
     *
     * @param nodes      every data node
     * @param ranges     every range
     * @param migrations the migrations under way
     * @return the facts
     */
    public static ClusterLoad of(List<NodeLoad> nodes, List<RangeLoad> ranges, int migrations) {
        long known = nodes.stream().filter(n -> n.bytes() >= 0).count();
        long sum = nodes.stream().filter(n -> n.bytes() >= 0).mapToLong(NodeLoad::bytes).sum();
        double rate = nodes.stream().filter(n -> n.requestsPerSecond() >= 0).mapToDouble(NodeLoad::requestsPerSecond)
                .average().orElse(0);
        return new ClusterLoad(nodes, ranges, migrations, known == 0 ? 0 : sum / known, rate);
    }
}
