package org.autodisk.node.meta;

import java.util.List;

/**
 * A node's part in the metadata replication, for status.
 *
 * @param role      {@code leader}, {@code follower}, {@code candidate} or {@code listener} (a node that follows
 *                  the log without voting), or {@code in-memory}
 * @param leader    the leader this node knows, or {@code null}
 * @param term      the current term
 * @param applied   the last log index applied here
 * @param version   the version of the state applied here
 * @param address   where the replica listens ({@code host:port}), or empty in memory
 * @param voters    the nodes that vote
 * @param group     the Raft group's configuration as this replica has it, one {@code id=voter@host:port} or
 *                  {@code id=listener@host:port} per replica (empty in memory)
 */
public record MetadataStatus(String role, String leader, long term, long applied, long version, String address,
        List<String> voters, List<String> group) {

    /** Copies the lists. */
    public MetadataStatus {
        voters = List.copyOf(voters);
        group = List.copyOf(group);
    }
}
