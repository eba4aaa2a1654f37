package org.autodisk.node.balance;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.autodisk.rules.ClusterLoad;
import org.autodisk.rules.NodeLoad;
import org.autodisk.rules.RangeLoad;

/**
 * The room left on the data nodes' disks during one balance round: each proposal the round starts takes its range's
 * bytes (half for an upper half) from its target's room, so that several proposals onto one node cannot fill its disk
 * past {@code balance.max-disk-used-percent} together, whatever the rules in force. A node or range whose figures are
 * unknown takes nothing and refuses nothing.
 */
final class DiskRoom {

    private final Map<String, NodeLoad> nodes = new HashMap<>();
    private final Map<Integer, Long> rangeBytes = new HashMap<>();
    private final Map<String, Long> taken = new HashMap<>();
    private final double maxUsedPercent;

    DiskRoom(ClusterLoad load, double maxUsedPercent) {
        load.nodes().forEach(n -> nodes.put(n.nodeId(), n));
        for (RangeLoad r : load.ranges()) {
            rangeBytes.put(r.rangeId(), Math.max(0, r.bytes()));
        }
        this.maxUsedPercent = maxUsedPercent;
    }

    /**
     * Takes a range's bytes from a target's room, if they fit.
     *
     * @param target    the node the range goes to
     * @param rangeId   the range
     * @param upperHalf whether only its upper half goes
     * @return false (and nothing taken) when the target's disk would pass the limit
     */
    boolean take(String target, int rangeId, boolean upperHalf) {
        NodeLoad n = nodes.get(target);
        long bytes = rangeBytes.getOrDefault(rangeId, 0L) / (upperHalf ? 2 : 1);
        long used = taken.getOrDefault(target, 0L);
        if (n != null && used + bytes > n.roomBytes(maxUsedPercent)) {
            return false;
        }
        taken.put(target, used + bytes);
        return true;
    }

    /** Says why {@link #take} refused. */
    String refusal(String target, int rangeId) {
        NodeLoad n = nodes.get(target);
        return String.format(Locale.ROOT, "%s's disk (%.1f %% used) has room for %d bytes below "
                + "balance.max-disk-used-percent %.1f, %d of them taken by this round's earlier moves; range %d holds "
                + "%d", target, n.diskUsedPercent(), n.roomBytes(maxUsedPercent), maxUsedPercent,
                taken.getOrDefault(target, 0L), rangeId, rangeBytes.getOrDefault(rangeId, 0L));
    }
}
