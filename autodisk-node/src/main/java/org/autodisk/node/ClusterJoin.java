package org.autodisk.node;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.core.cluster.MemberStatus;
import org.autodisk.core.cluster.MembersReport;
import org.autodisk.core.config.ConfigException;
import org.autodisk.node.config.ClusterMember;
import org.autodisk.node.config.NodeConfig;
import org.autodisk.node.config.NodeConfigKeys;
import org.autodisk.node.meta.MetadataSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The first step of a data node that joins a running cluster ({@code cluster.join}): it asks a seed for the
 * cluster's members (MEMBERS, as a client would) and takes them, with their metadata voters, as its own member list.
 * The node then starts as any member does, with its metadata replica as a listener that the cluster adds to its Raft
 * group, and asks the metadata to add it ({@link org.autodisk.node.meta.MetaCommand.AddMember}). A node that
 * restarts asks again: it learns the members that changed meanwhile, and its addition is already there.
 */
final class ClusterJoin {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterJoin.class);
    private static final long RETRY_MS = 500;

    private ClusterJoin() {
    }

    /**
     * Returns the configuration of the node with the members of the cluster it joins, or the configuration itself
     * for a node that joins nothing.
     *
     * @param config the node's configuration
     * @return the configuration to start with
     * @throws ConfigException if no seed answers within the metadata request timeout, or the cluster has a member
     *                         with this node's id elsewhere
     */
    static NodeConfig members(NodeConfig config) throws InterruptedException {
        List<String> seeds = config.joinSeeds();
        if (seeds.isEmpty()) {
            return config;
        }
        Duration timeout = Duration.ofMillis(config.get(NodeConfigKeys.METADATA_TIMEOUT_MS));
        long deadline = System.nanoTime() + timeout.toNanos() * 3;
        List<String> failures = new ArrayList<>();
        while (true) {
            for (String seed : seeds) {
                try {
                    return joined(config, seed, ask(config, seed, timeout));
                } catch (RuntimeException e) {
                    if (e instanceof ConfigException) {
                        throw e;
                    }
                    failures.add(seed + ": " + e.getMessage());
                    LOG.info("{}: seed {} did not give the cluster's members: {}", config.nodeId(), seed,
                            e.getMessage());
                }
            }
            if (System.nanoTime() > deadline) {
                throw new ConfigException("node " + config.nodeId() + " cannot join the cluster through "
                        + config.get(NodeConfigKeys.CLUSTER_JOIN) + ": " + String.join("; ", failures.subList(
                        Math.max(0, failures.size() - seeds.size()), failures.size())));
            }
            Thread.sleep(RETRY_MS);
        }
    }

    private static MembersReport ask(NodeConfig config, String seed, Duration timeout) {
        AutoDiskClient.Builder b = AutoDiskClient.builder().seeds(seed).clientId(config.nodeId() + "-join")
                .requestTimeout(timeout).connectTimeout(Duration.ofMillis(
                        config.get(NodeConfigKeys.CONNECT_TIMEOUT_MS)));
        if (config.get(NodeConfigKeys.TLS_ENABLED)) {
            String trust = config.get(NodeConfigKeys.TLS_TRUST_STORE);
            b.tls(trust.isBlank() ? null : Path.of(trust), config.get(NodeConfigKeys.TLS_TRUST_STORE_PASSWORD))
                    .verifyHostname(config.get(NodeConfigKeys.TLS_VERIFY_HOSTNAME));
        }
        try (AutoDiskClient client = b.build()) {
            return client.admin().members();
        }
    }

    private static NodeConfig joined(NodeConfig config, String seed, MembersReport report) {
        List<ClusterMember> members = new ArrayList<>();
        List<String> voters = new ArrayList<>();
        for (MemberStatus m : report.members()) {
            ClusterMember member = new ClusterMember(m.id(), ClusterMember.Role.parse(m.role()),
                    ClusterMember.parseAddress(m.address()));
            if (m.id().equals(config.nodeId()) && !member.hostPort().equals(config.self().hostPort())) {
                throw new ConfigException("node.id '" + config.nodeId() + "' is a member of the cluster already, at "
                        + m.address() + ", not at " + config.self().hostPort() + ": a joining node needs a new id");
            }
            members.add(member);
            if (m.voter()) {
                voters.add(m.id());
            }
        }
        if (voters.isEmpty()) {
            throw new IllegalStateException("seed " + report.reportedBy() + " named no metadata voter");
        }
        List<MetadataSettings.Peer> group = group(report);
        LOG.info("{}: joining through {} ({}): members {}, metadata voters {}, metadata group {}", config.nodeId(),
                seed, report.reportedBy(), members.stream().map(m -> m.id() + "=" + m.role().label() + "@"
                        + m.hostPort()).toList(), voters, report.metadataGroup());
        String kind = report.directory();
        if (kind != null && !kind.equals(config.get(NodeConfigKeys.DIRECTORY))) {
            LOG.warn("{}: cluster.directory is {} but the cluster was created with the {} directory; a joining node "
                    + "runs the cluster's, so this node runs {}", config.nodeId(), config.get(NodeConfigKeys.DIRECTORY),
                    kind, kind);
        }
        int fanout = report.directoryFanout();
        int configured = config.get(NodeConfigKeys.DIRECTORY_FANOUT);
        if (fanout > 0 && fanout != configured) {
            LOG.info("{}: the cluster's Fat-Btree pages hold up to {} entries; this node takes that fanout (its "
                    + "directory.fanout says {})", config.nodeId(), fanout, configured);
        } else if (fanout == 0 && "fat-btree".equals(kind)) {
            LOG.warn("{}: seed {} did not say the cluster's Fat-Btree fanout (a log node of a cluster created "
                    + "before the metadata recorded it); this node uses its directory.fanout {}, which must be the "
                    + "cluster's: join through a data node to take it", config.nodeId(), seed, configured);
        }
        return config.joined(members, voters, group, kind, fanout);
    }

    /**
     * The metadata group's configuration the seed's replica has ({@code id=voter@host:port} or
     * {@code id=listener@host:port}): this node's replica is added to exactly that, so that a replica added by a
     * node that failed to join is kept, not dropped.
     */
    private static List<MetadataSettings.Peer> group(MembersReport report) {
        List<MetadataSettings.Peer> peers = new ArrayList<>();
        for (String entry : report.metadataGroup()) {
            int eq = entry.indexOf('=');
            int at = entry.indexOf('@', eq);
            if (eq <= 0 || at <= eq) {
                throw new IllegalStateException("seed " + report.reportedBy() + " reported a metadata group entry '"
                        + entry + "' that is not id=voter|listener@host:port");
            }
            peers.add(new MetadataSettings.Peer(entry.substring(0, eq), entry.substring(at + 1),
                    entry.substring(eq + 1, at).equals("voter")));
        }
        return peers;
    }
}
