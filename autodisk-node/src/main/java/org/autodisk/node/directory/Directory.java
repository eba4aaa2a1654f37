package org.autodisk.node.directory;

/**
 * A node's copy of the directory. Reads are lock-free snapshots; a newer map replaces the current one
 * atomically, so a request routed with a stale copy is forwarded again by the node it reaches.
 */
public interface Directory {

    /**
     * Returns the current map.
     *
     * @return an immutable snapshot
     */
    RangeMap current();

    /**
     * Installs a map if it is newer than the current one.
     *
     * @param map the candidate
     * @return true if it was installed
     */
    boolean install(RangeMap map);

    /**
     * Creates a range-partitioned directory holding an initial map.
     *
     * @param initial the map at cluster creation
     * @return the directory
     */
    static Directory range(RangeMap initial) {
        return new RangeDirectory(initial);
    }
}
