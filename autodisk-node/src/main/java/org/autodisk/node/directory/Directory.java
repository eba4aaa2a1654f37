package org.autodisk.node.directory;

import java.util.List;
import org.autodisk.core.Keys;
import org.autodisk.core.cluster.DirectoryReport;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.Metadata;

/**
 * A node's routing view of the key space, kept up to date from the committed metadata. It answers where a key's
 * request goes - served here, or the next hop - and, for traverse, the placements that cover an interval. Safety is
 * the metadata's: the directory only routes. A directory may know only the next hop, not the final owner.
 */
public interface Directory {

    /**
     * Tells whether the directory knows the cluster's ranges.
     *
     * @return false until the cluster metadata is bootstrapped and applied here
     */
    boolean ready();

    /**
     * Locates a key.
     *
     * @param key the key
     * @return its placement
     * @throws IllegalStateException if not {@link #ready()}
     */
    Placement locate(byte[] key);

    /**
     * Returns the placements that cover {@code [from, toExclusive)}, in key order, as far as this node can resolve
     * them; a placement without a range covers the rest of the interval (its next hop resolves it).
     *
     * @param from        inclusive start
     * @param toExclusive exclusive end, {@code null} for the end of the key space
     * @return the placements
     * @throws IllegalStateException if not {@link #ready()}
     */
    List<Placement> cover(byte[] from, byte[] toExclusive);

    /**
     * Returns the version of the metadata this directory reflects.
     *
     * @return the version (0 before bootstrap)
     */
    long version();

    /**
     * Applies a committed state of the metadata; an older one than the current is ignored.
     *
     * @param state the state
     */
    void apply(MetaState state);

    /**
     * Follows a node's metadata: applies every committed state (and, for a directory whose structure changes with
     * the commands, every command) from now on.
     *
     * @param metadata the node's metadata
     */
    default void follow(Metadata metadata) {
        metadata.subscribe(this::apply);
    }

    /** Stops what the directory runs (a thread, its page messages); routing after it is undefined. */
    default void close() {
    }

    /**
     * Names the kind of directory.
     *
     * @return e.g. {@code range}
     */
    String kind();

    /**
     * Returns the most entries an index page holds, which a node that joins the cluster takes.
     *
     * @return the fanout, 0 for a directory without index pages
     */
    default int fanout() {
        return 0;
    }

    /**
     * Describes what this node holds, for {@code directory}: the range map holds no index pages, and the node's own
     * ranges are its leaves.
     *
     * @param self  this node
     * @param state the metadata this node applied
     * @return this node's part of the directory report
     */
    default DirectoryReport.NodeIndex index(String self, MetaState state) {
        List<String> own = state.ranges().stream().filter(r -> r.owner().equals(self)).map(r -> render(r.low()))
                .toList();
        return new DirectoryReport.NodeIndex(self, kind(), 0, own.size(), List.of(), own, null);
    }

    /**
     * Renders a key for {@link #index}: the empty key (the start of the key space) as an empty string.
     *
     * @param key the key
     * @return its printable form
     */
    static String render(byte[] key) {
        return key.length == 0 ? "" : Keys.render(key);
    }

    /**
     * Creates the range-partitioned directory: every node holds every range and forwards at most once.
     *
     * @param selfId this node
     * @return the directory
     */
    static Directory range(String selfId) {
        return new RangeDirectory(selfId);
    }
}
