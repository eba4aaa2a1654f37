package org.autodisk.node.meta;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Where a node's metadata replica runs and with whom.
 *
 * @param nodeId          this node
 * @param peers           every member's replica: id, {@code host:port}, and whether it votes
 * @param bindHost        the host the replica binds to
 * @param port            the replica's port
 * @param dir             its Raft log and snapshots
 * @param secret          the cluster secret, from which the Raft group id is derived at the first start (so a
 *                        stranger cannot address the group), or {@code null} for a one-node cluster
 * @param electionTimeout the lower election timeout; the upper one is twice it
 * @param snapshotEvery   a snapshot after this many log entries; older snapshots and log segments are removed
 * @param requestTimeout  how long a proposal may take by default
 * @param join            whether this replica joins a running group (a node started with {@code cluster.join}): it
 *                        asks the group's leader to add it as a listener, which does nothing if it is one already
 * @param logSegmentBytes the size at which a Raft log segment is closed and a new one begun; only closed segments
 *                        behind a snapshot are removed
 */
public record MetadataSettings(String nodeId, List<Peer> peers, String bindHost, int port, Path dir, String secret,
        Duration electionTimeout, long snapshotEvery, Duration requestTimeout, boolean join, long logSegmentBytes) {

    /** The Raft log segment size when none is given: 1 MiB. */
    public static final long DEFAULT_LOG_SEGMENT_BYTES = 1 << 20;

    /** Copies the list. */
    public MetadataSettings {
        peers = List.copyOf(peers);
        if (logSegmentBytes < 1024) {
            throw new IllegalArgumentException("a metadata log segment of " + logSegmentBytes + " bytes is too small "
                    + "(at least 1024)");
        }
    }

    /**
     * One member's replica.
     *
     * @param id      node id
     * @param address {@code host:port} of its replica
     * @param voter   whether it votes (else it follows the log as a listener)
     */
    public record Peer(String id, String address, boolean voter) {
    }

    /**
     * Returns the ids of the voters.
     *
     * @return voter ids in order
     */
    public List<String> voters() {
        return peers.stream().filter(Peer::voter).map(Peer::id).toList();
    }
}
