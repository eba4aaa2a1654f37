package org.autodisk.node.config;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.autodisk.node.meta.Member;
import org.autodisk.node.meta.MetaState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The members this node knows now: those of its configuration ({@code cluster.nodes}), and every member the committed
 * metadata adds (a data node that joined the running cluster). Peer connections, the handshake, status and load
 * reports look members up here, so a node that joined is reached and accepted by every node that has applied its
 * addition, without a restart or a configuration change.
 */
public final class LiveMembers {

    private static final Logger LOG = LoggerFactory.getLogger(LiveMembers.class);

    private final String selfId;
    private volatile Map<String, ClusterMember> members;

    /**
     * Starts from the configured members.
     *
     * @param selfId     this node
     * @param configured the members of {@code cluster.nodes}
     */
    public LiveMembers(String selfId, List<ClusterMember> configured) {
        this.selfId = selfId;
        Map<String, ClusterMember> m = new LinkedHashMap<>();
        configured.forEach(c -> m.put(c.id(), c));
        this.members = m;
    }

    /**
     * Adds the members the committed metadata has and this node did not know (their recorded address wins for them;
     * a configured member keeps its configured address).
     *
     * @param state the committed metadata
     */
    public synchronized void apply(MetaState state) {
        Map<String, ClusterMember> next = null;
        for (Member m : state.members()) {
            if (!members.containsKey(m.id())) {
                next = next == null ? new LinkedHashMap<>(members) : next;
                next.put(m.id(), new ClusterMember(m.id(), ClusterMember.Role.parse(m.role()),
                        ClusterMember.parseAddress(m.address())));
                LOG.info("{}: {} node {} at {} is a member now (metadata v{})", selfId, m.role(), m.id(), m.address(),
                        state.version());
            }
        }
        if (next != null) {
            members = next;
        }
    }

    /**
     * Returns every known member: the configured ones in configuration order, then those that joined.
     *
     * @return the members
     */
    public List<ClusterMember> all() {
        return new ArrayList<>(members.values());
    }

    /**
     * Returns where a member serves.
     *
     * @param id the member
     * @return its address, or {@code null} if it is not a member
     */
    public InetSocketAddress address(String id) {
        ClusterMember m = members.get(id);
        return m == null ? null : m.address();
    }

    /**
     * Returns whether a node is a member.
     *
     * @param id the node
     * @return whether it is
     */
    public boolean contains(String id) {
        return members.containsKey(id);
    }

    /**
     * Returns the ids of the data nodes.
     *
     * @return data node ids
     */
    public List<String> dataNodes() {
        return members.values().stream().filter(m -> m.role() == ClusterMember.Role.DATA).map(ClusterMember::id)
                .toList();
    }
}
