package org.autodisk.node.meta;

import java.util.List;
import org.autodisk.core.Keys;

/**
 * The cluster metadata at one point of its history: members, one descriptor per range in key order, the directory
 * kind, and what the cluster was created with. Immutable; every committed change makes a new one.
 *
 * @param version     the log index of the last command that changed it (0: nothing yet)
 * @param directory   the directory kind chosen at creation ({@code range}), {@code null} before bootstrap
 * @param members     every member
 * @param ranges      every range, in key order, tiling the key space (empty before bootstrap)
 * @param nextRangeId the id the next new range gets
 * @param created     what the cluster was created from, {@code null} before bootstrap
 */
public record MetaState(long version, String directory, List<Member> members, List<RangeDescriptor> ranges,
        int nextRangeId, Creation created) {

    /** The state of a cluster that was never bootstrapped. */
    public static final MetaState EMPTY = new MetaState(0, null, List.of(), List.of(), 0, null);

    /** Copies the lists. */
    public MetaState {
        members = List.copyOf(members);
        ranges = List.copyOf(ranges);
    }

    /**
     * The configuration a cluster was created from, kept to tell a later configuration that disagrees.
     *
     * @param dataNodes   the data nodes in configuration order
     * @param splitPoints the initial split points, hex (empty: the even split)
     */
    public record Creation(List<String> dataNodes, List<String> splitPoints) {

        /** Copies the lists. */
        public Creation {
            dataNodes = List.copyOf(dataNodes);
            splitPoints = List.copyOf(splitPoints);
        }
    }

    /**
     * Tells whether the cluster was created.
     *
     * @return true once a bootstrap committed
     */
    public boolean bootstrapped() {
        return created != null;
    }

    /**
     * Finds a range by id.
     *
     * @param id the range id
     * @return the range, or {@code null}
     */
    public RangeDescriptor range(int id) {
        for (RangeDescriptor r : ranges) {
            if (r.id() == id) {
                return r;
            }
        }
        return null;
    }

    /**
     * Finds the range that holds a key.
     *
     * @param key the key
     * @return its range
     * @throws IllegalStateException before bootstrap
     */
    public RangeDescriptor rangeOf(byte[] key) {
        if (ranges.isEmpty()) {
            throw new IllegalStateException("the cluster metadata is not bootstrapped yet");
        }
        int lo = 0;
        int hi = ranges.size() - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (Keys.compare(ranges.get(mid).low(), key) <= 0) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return ranges.get(lo);
    }

    /**
     * Finds a member.
     *
     * @param id the node id
     * @return the member, or {@code null}
     */
    public Member member(String id) {
        for (Member m : members) {
            if (m.id().equals(id)) {
                return m;
            }
        }
        return null;
    }
}
