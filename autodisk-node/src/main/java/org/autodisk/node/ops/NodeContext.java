package org.autodisk.node.ops;

import java.util.List;
import java.util.function.Function;
import org.autodisk.core.Limits;
import org.autodisk.node.backup.BackupStores;
import org.autodisk.node.backup.CatchUp;
import org.autodisk.node.config.ClusterMember;
import org.autodisk.node.directory.Directory;
import org.autodisk.node.metrics.NodeMetrics;
import org.autodisk.node.peer.PeerChannel;
import org.autodisk.node.queue.RequestQueue;
import org.autodisk.node.rules.NodeRules;
import org.autodisk.node.shipping.WriteAheadLog;
import org.autodisk.node.store.LocalStore;
import org.autodisk.node.wal.LogStore;

/**
 * What the operation handlers of one node share.
 *
 * @param self             this node
 * @param members          every member of the cluster
 * @param store            the local store ({@code null} on a log node)
 * @param directory        this node's directory copy
 * @param peers            connections to the other nodes
 * @param queue            the request queue (continuations run on it)
 * @param metrics          the node's figures
 * @param limits           key and value limits
 * @param hopLimit         forward.hop-limit
 * @param maxResponseBytes limits.max-response-bytes
 * @param wal              the write-ahead log a data node ships to ({@code null}: no log nodes)
 * @param logStore         the log a log node keeps ({@code null} on data nodes)
 * @param backups          a data node's backup copies of other nodes' ranges ({@code null} on log nodes)
 * @param catchUp          a log node's backup catch-up ({@code null} on data nodes)
 * @param logNodesOf       the log nodes of each data node
 * @param rules            the node's ECA rules, which decide every stream request
 */
public record NodeContext(ClusterMember self, List<ClusterMember> members, LocalStore store, Directory directory,
        PeerChannel peers, RequestQueue queue, NodeMetrics metrics, Limits limits, int hopLimit,
        int maxResponseBytes, WriteAheadLog wal, LogStore logStore, BackupStores backups, CatchUp catchUp,
        Function<String, List<String>> logNodesOf, NodeRules rules) {

    /**
     * Returns this node's id.
     *
     * @return the id
     */
    public String nodeId() {
        return self.id();
    }
}
