package org.autodisk.node.ops;

import org.autodisk.node.config.ClusterMember;

/**
 * What a node does by its role - data or log: the services it runs and the operations it serves. Built with every
 * service open; {@link #start} starts its background work once the node serves.
 */
public interface NodeRole {

    /**
     * Returns the role.
     *
     * @return data or log
     */
    ClusterMember.Role role();

    /**
     * Registers the handlers of the operations this role serves.
     *
     * @param handlers the node's handlers
     */
    void register(Handlers handlers);

    /**
     * Returns the streams this node stores as primary, for status.
     *
     * @return the count (0 on a log node)
     */
    long streamCount();

    /**
     * Measures the ranges this node owns, by the metadata it has applied.
     *
     * @return keys and bytes by range id (empty on a log node)
     */
    default java.util.Map<Integer, org.autodisk.node.store.RangeUsage> rangeUsage() {
        return java.util.Map.of();
    }

    /**
     * Measures the disk this node's data directory is on, for the balancer.
     *
     * @return its space ({@code null} on a log node, which takes no range, or when it cannot be measured)
     */
    default org.autodisk.node.store.DiskSpace disk() {
        return null;
    }

    /**
     * Returns the key of the middle stream of a range this node holds (where it would split into halves).
     *
     * @param low  the range's first key
     * @param high its end key ({@code null}: to the end)
     * @return the key, or {@code null} if it holds fewer than two streams there (always on a log node)
     */
    default byte[] splitKey(byte[] low, byte[] high) {
        return null;
    }

    /**
     * Makes the metadata command that splits a range at a key: a data node that owns the range opens the halves'
     * ledgers in the same change.
     *
     * @param range the range as this node knows it
     * @param at    the first key of the right half
     * @return the command
     */
    default org.autodisk.node.meta.MetaCommand.Split splitCommand(org.autodisk.node.meta.RangeDescriptor range,
            byte[] at) {
        return new org.autodisk.node.meta.MetaCommand.Split(range.id(), range.generation(), at);
    }

    /**
     * Describes what the role holds, for the start-up log.
     *
     * @return e.g. {@code store rocksdb:/data/d1 with 12 streams; owns range 0 [, h)}
     */
    String describe();

    /**
     * Drops what this node holds of ranges that moved on while the cluster had it failed (a data node: its store's
     * spans of ranges it no longer owns), before it rejoins. Nothing by default.
     *
     * @param state the metadata now
     * @return whether all of it is dropped; {@code false} while the node still has a writer for such a range (it
     *         retires it as it applies the metadata): the rejoin tries again at its next check
     */
    default boolean dropStale(org.autodisk.node.meta.MetaState state) {
        return true;
    }

    /**
     * Says why this node takes no writes now, for the writers that choose log nodes (a NODE_INFO asking
     * {@code WRITABLE} is refused with it).
     *
     * @return the reason (a log node whose journal failed), or {@code null} while it takes writes (by default)
     */
    default String unwritable() {
        return null;
    }

    /**
     * Says why this node keeps silent in the failure detection now: it sends and answers no heartbeat, so that the
     * others declare it failed and fail its ranges over.
     *
     * @return the reason (a data node whose store's writes have failed for {@code store.failover-after-ms}), or
     *         {@code null} (by default)
     */
    default String silenced() {
        return null;
    }

    /** A failover this node coordinated committed; a data node runs a balance round soon (to fill new backups). */
    default void afterFailover() {
    }

    /**
     * Starts background work (catch-up, load reports), once the node serves. What the role opened is released
     * by the node's {@link org.autodisk.node.lifecycle.Resources}.
     *
     * @param self this node's own figures, as a brief NODE_INFO reports them (no latency percentiles)
     */
    void start(java.util.function.Supplier<org.autodisk.core.cluster.NodeStatus> self);
}
