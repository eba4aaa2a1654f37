package org.autodisk.bench.faults;

import java.io.IOException;
import java.util.List;
import org.autodisk.cli.LocalCluster;

/**
 * The cluster a fault run injects its faults into: local processes ({@link #local}) or containers (the container
 * suite's own target). Nodes are named by their index in {@link #ids()}, data nodes first.
 */
public interface FaultTarget {

    /**
     * Returns the node ids.
     *
     * @return every node id, data nodes first
     */
    List<String> ids();

    /**
     * Returns how many of the nodes are data nodes.
     *
     * @return the number of data nodes (the first ones of {@link #ids()})
     */
    int dataNodes();

    /**
     * Returns where a client outside the cluster reaches each data node; the same addresses after a node restarted.
     *
     * @return {@code host:port} of every data node, in id order
     */
    List<String> seeds();

    /**
     * Says whether this target can inject a kind of fault.
     *
     * @param kind the fault
     * @return true if it can
     */
    boolean supports(FaultKind kind);

    /**
     * Kills a node's process at once ({@code kill -9}), keeping its data.
     *
     * @param node the node's index
     * @throws IOException if it cannot be signalled
     * @throws InterruptedException if interrupted
     */
    void kill(int node) throws IOException, InterruptedException;

    /**
     * Starts a killed node again on its data.
     *
     * @param node the node's index
     * @throws IOException if it cannot be started
     */
    void restart(int node) throws IOException;

    /**
     * Stops a node's process without killing it (SIGSTOP: it keeps its sockets).
     *
     * @param node the node's index
     * @throws IOException if it cannot be paused
     */
    void pause(int node) throws IOException;

    /**
     * Lets a paused node go on.
     *
     * @param node the node's index
     * @throws IOException if it cannot be resumed
     */
    void resume(int node) throws IOException;

    /**
     * Cuts a node off the network while it runs on: from every other node, and from clients where the target can (a
     * container; a local process stays reachable by clients).
     *
     * @param node the node's index
     * @throws IOException if it cannot be cut off
     * @throws UnsupportedOperationException if {@link #supports} says no for {@link FaultKind#PARTITION_DATA}
     */
    void isolate(int node) throws IOException;

    /**
     * Connects an isolated node again.
     *
     * @param node the node's index
     * @throws IOException if it cannot be connected
     */
    void reconnect(int node) throws IOException;

    /**
     * Holds everything node {@code from} sends node {@code to} (on every connection between them) until
     * {@link #restore}; the other direction and every other link go on.
     *
     * @param from the sending node's index
     * @param to   the receiving node's index
     * @throws IOException if the link cannot be cut
     * @throws UnsupportedOperationException if {@link #supports} says no for {@link FaultKind#PARTITION_LINK}
     */
    default void cut(int from, int to) throws IOException {
        throw new UnsupportedOperationException(this + " cannot cut one link between two nodes");
    }

    /**
     * Lets what node {@code from} sends node {@code to} pass again, what was held first.
     *
     * @param from the sending node's index
     * @param to   the receiving node's index
     * @throws IOException if the link cannot be restored
     */
    default void restore(int from, int to) throws IOException {
        throw new UnsupportedOperationException(this + " cannot cut one link between two nodes");
    }

    /**
     * Fills a node's file system for real, to its last free byte.
     *
     * @param node the node's index
     * @throws IOException if it cannot be filled
     * @throws UnsupportedOperationException if {@link #supports} says no for {@link FaultKind#FS_FULL_DATA}
     */
    default void fill(int node) throws IOException {
        throw new UnsupportedOperationException(this + " cannot fill a node's file system");
    }

    /**
     * Frees what {@link #fill} took.
     *
     * @param node the node's index
     * @throws IOException if it cannot be freed
     */
    default void free(int node) throws IOException {
        throw new UnsupportedOperationException(this + " cannot fill a node's file system");
    }

    /**
     * Writes a file into a node's {@code fault.hooks-dir} (the nodes run with it set to {@code faults}), which turns a
     * fault of its journal on while it runs.
     *
     * @param node    the node's index
     * @param file    {@code disk-full} or {@code slow-fsync}
     * @param content what the file holds (the milliseconds of {@code slow-fsync})
     * @throws IOException if it cannot be written
     */
    void hook(int node, String file, String content) throws IOException;

    /**
     * Removes a file {@link #hook} wrote, if there.
     *
     * @param node the node's index
     * @param file the file
     * @throws IOException if it cannot be removed
     */
    void unhook(int node, String file) throws IOException;

    /**
     * The target of a cluster of local processes: every kind but the partitions; its nodes must run with
     * {@code fault.hooks-dir} set to {@link FaultRun#HOOKS_DIR} for the faults of a disk.
     *
     * @param cluster   the running local cluster
     * @param dataNodes how many of its nodes are data nodes
     * @return the target
     */
    static FaultTarget local(LocalCluster cluster, int dataNodes) {
        return new LocalTarget(cluster, dataNodes, null, null);
    }
}
