package org.autodisk.node.ops;

import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import org.autodisk.core.Limits;
import org.autodisk.node.config.ClusterMember;
import org.autodisk.node.config.LiveMembers;
import org.autodisk.node.directory.Directory;
import org.autodisk.node.meta.Metadata;
import org.autodisk.node.meta.MetadataStatus;
import org.autodisk.node.metrics.NodeMetrics;
import org.autodisk.node.peer.PeerChannel;
import org.autodisk.node.queue.RequestQueue;
import org.autodisk.node.rules.NodeRules;

/**
 * What every node has, whatever its role; role services (store, log, ...) belong to the role.
 *
 * @param self             this node
 * @param membership       every member of the cluster: the configured ones and those that joined
 * @param metadata         the committed cluster metadata and the way to change it
 * @param directory        this node's routing view, kept up to date from the metadata
 * @param peers            connections to the other nodes
 * @param queue            the request queue (continuations run on it)
 * @param metrics          the node's figures
 * @param rules            the node's ECA rules, which decide every stream request
 * @param limits           key and value limits
 * @param hopLimit         forward.hop-limit
 * @param maxResponseBytes limits.max-response-bytes
 * @param logNodesOf       the log nodes of each data node
 * @param metadataTimeout  metadata.request-timeout-ms: how long a metadata change may take to commit
 */
public record NodeContext(ClusterMember self, LiveMembers membership, Metadata metadata, Directory directory,
        PeerChannel peers,
        RequestQueue queue, NodeMetrics metrics, NodeRules rules, Limits limits, int hopLimit, int maxResponseBytes,
        Function<String, List<String>> logNodesOf, Duration metadataTimeout) {

    /**
     * Returns this node's id.
     *
     * @return the id
     */
    public String nodeId() {
        return self.id();
    }

    /**
     * Returns every member this node knows now.
     *
     * @return the members
     */
    public List<ClusterMember> members() {
        return membership.all();
    }

    /**
     * Returns the members of a role, for messages.
     *
     * @param role the role
     * @return e.g. {@code d1 (10.0.0.1:7400), d2 (10.0.0.2:7400)}
     */
    public String membersOf(ClusterMember.Role role) {
        return String.join(", ", members().stream().filter(m -> m.role() == role)
                .map(m -> m.id() + " (" + m.hostPort() + ")").toList());
    }

    /**
     * Says why this node cannot serve what needs the cluster metadata yet.
     *
     * @return the message, naming the voters and what this node knows of the metadata
     */
    public String metadataNotReady() {
        MetadataStatus m = metadata.status();
        return "node " + nodeId() + " does not know the cluster's ranges yet: the cluster metadata is not created "
                + "(its voters " + m.voters() + " create it once a majority of them is up) or not yet replicated "
                + "here (this replica is " + m.role() + ", leader " + (m.leader() == null ? "unknown" : m.leader())
                + "); retry in a moment";
    }
}
