package org.autodisk.node.config;

import static org.autodisk.node.config.NodeConfigKeys.CLUSTER_NODES;
import static org.autodisk.node.config.NodeConfigKeys.NODE_ID;
import static org.autodisk.node.config.NodeConfigKeys.SPLIT_POINTS;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.autodisk.core.Keys;
import org.autodisk.core.Limits;
import org.autodisk.core.config.Config;
import org.autodisk.core.config.ConfigException;
import org.autodisk.core.config.ConfigKey;
import org.autodisk.core.config.ConfigLayer;
import org.autodisk.node.meta.MetadataSettings;
import org.autodisk.rules.RuleConfig;

/**
 * A node's validated configuration: the effective {@link Config} plus the parsed member list and split points.
 */
public final class NodeConfig {

    private final Config config;
    private final String source;
    private final List<ClusterMember> members;
    private final List<byte[]> splitPoints;
    /** What a joining node learnt of the cluster it joins; {@code null} for a node of the configured cluster. */
    private final Joined joined;

    private record Joined(List<String> voters, List<MetadataSettings.Peer> group, String directory, int fanout) {
    }

    private NodeConfig(Config config, String source) {
        this.config = config;
        this.source = source;
        this.members = MemberListParser.parse(config.get(CLUSTER_NODES), config.origin(CLUSTER_NODES));
        this.splitPoints = parseSplitPoints(config.get(SPLIT_POINTS), config.origin(SPLIT_POINTS));
        this.joined = null;
        new ConfigChecks(this, config).run();
    }

    private NodeConfig(NodeConfig joining, List<ClusterMember> members, List<String> voters,
            List<MetadataSettings.Peer> group, String directory, int fanout) {
        this.config = joining.config;
        this.source = joining.source;
        this.members = List.copyOf(members);
        this.splitPoints = joining.splitPoints;
        this.joined = new Joined(List.copyOf(voters), List.copyOf(group), directory, fanout);
    }

    /**
     * Returns this configuration with the members and metadata voters of the cluster it joins (a node started with
     * {@code cluster.join}); this node stays as configured.
     *
     * @param cluster the cluster's members, as a seed reported them
     * @param voters  the cluster's metadata voters
     * @param group   the metadata's Raft group as the seed's replica has it (the configuration this node's replica
     *                is added to); empty to derive it from the members
     * @param directory the directory the cluster was created with, which this node runs; {@code null} if the seed
     *                  did not say (this node runs {@code cluster.directory})
     * @param fanout    the cluster's Fat-Btree fanout, which this node takes; 0 if the seed did not say
     * @return the configuration of the joined node
     * @throws ConfigException if a setting does not fit the cluster (a multiplicity above its log nodes)
     */
    public NodeConfig joined(List<ClusterMember> cluster, List<String> voters, List<MetadataSettings.Peer> group,
            String directory, int fanout) {
        List<ClusterMember> all = new ArrayList<>(cluster.stream().filter(m -> !m.id().equals(nodeId())).toList());
        all.add(self());
        NodeConfig joined = new NodeConfig(this, all, voters, group, directory, fanout);
        new ConfigChecks(joined, config).checkJoined();
        return joined;
    }

    /**
     * Returns the directory this node runs when it is created: that of the cluster it joins, else
     * {@code cluster.directory}.
     *
     * @return {@code range} or {@code fat-btree}
     */
    public String directory() {
        return joined != null && joined.directory() != null ? joined.directory() : config.get(NodeConfigKeys.DIRECTORY);
    }

    /**
     * Returns the Fat-Btree fanout this node runs: that of the cluster it joins, else {@code directory.fanout}.
     *
     * @return the most entries in an index page
     */
    public int directoryFanout() {
        return joined != null && joined.fanout() > 0 ? joined.fanout() : config.get(NodeConfigKeys.DIRECTORY_FANOUT);
    }

    /**
     * Returns the seeds this node joins a running cluster through ({@code cluster.join}).
     *
     * @return host:port of each seed; empty for a node of the configured cluster
     */
    public List<String> joinSeeds() {
        return strings(NodeConfigKeys.CLUSTER_JOIN);
    }

    /**
     * Loads a YAML file; environment variables ({@code AUTODISK_...}) override its values.
     *
     * @param file the YAML file, or {@code null} for the environment alone
     * @param env  the environment
     * @return the configuration
     * @throws ConfigException naming the file or variable and the key on any error
     */
    public static NodeConfig load(Path file, Map<String, String> env) {
        return load(file, List.of(), env);
    }

    /**
     * Loads a YAML file with more settings on top (from command-line flags, say); the environment overrides all.
     *
     * @param file  the YAML file, or {@code null}
     * @param extra settings applied after the file's, in order, each naming its source
     * @param env   the environment
     * @return the configuration
     * @throws ConfigException naming the source and the key on any error
     */
    public static NodeConfig load(Path file, List<ConfigLayer> extra, Map<String, String> env) {
        List<ConfigLayer> layers = new ArrayList<>();
        if (file != null) {
            layers.add(new ConfigLayer(file.toString(), readYaml(file)));
        }
        layers.addAll(extra);
        String source = layers.isEmpty() ? "the environment" : String.join(", ",
                layers.stream().map(ConfigLayer::source).toList());
        return new NodeConfig(Config.of(NodeConfigKeys.ALL, layers, env), source);
    }

    /**
     * Builds a configuration from dotted keys, ignoring the environment (tests and embedded clusters).
     *
     * @param values dotted keys to values
     * @return the configuration
     */
    public static NodeConfig of(Map<String, Object> values) {
        return new NodeConfig(Config.of(NodeConfigKeys.ALL, values, Map.of(), "embedded configuration"),
                "embedded configuration");
    }

    /**
     * Reads a YAML file of settings as dotted keys.
     *
     * @param file the file
     * @return dotted key names to raw values
     * @throws ConfigException naming the file if it cannot be read or is not a mapping
     */
    public static Map<String, Object> readYaml(Path file) {
        return YamlSettings.read(file);
    }

    /**
     * Parses YAML settings text as dotted keys.
     *
     * @param text   the YAML (may be empty)
     * @param source where it came from, for errors
     * @return dotted key names to raw values
     * @throws ConfigException naming the source if it is not YAML or not a mapping
     */
    public static Map<String, Object> parseYaml(String text, String source) {
        return YamlSettings.parse(text, source);
    }

    private static List<byte[]> parseSplitPoints(List<?> raw, String origin) {
        List<byte[]> points = new ArrayList<>();
        for (Object o : raw) {
            byte[] p;
            try {
                p = Keys.parse(String.valueOf(o));
            } catch (IllegalArgumentException e) {
                throw new ConfigException("cluster.split-points (from " + origin + "): " + e.getMessage(), e);
            }
            if (p.length == 0) {
                throw new ConfigException("cluster.split-points (from " + origin + "): a split point must not be "
                        + "empty");
            }
            if (!points.isEmpty() && Keys.compare(points.get(points.size() - 1), p) >= 0) {
                throw new ConfigException("cluster.split-points (from " + origin + ") must be sorted and distinct; '"
                        + o + "' does not sort after the point before it");
            }
            points.add(p);
        }
        return points;
    }

    /**
     * Returns the nodes that vote on the metadata: {@code metadata.voters}, or the first three data nodes.
     *
     * @return voter ids
     */
    public List<String> metadataVoters() {
        if (joined != null) {
            return joined.voters();
        }
        List<String> given = strings(NodeConfigKeys.METADATA_VOTERS);
        return given.isEmpty() ? dataNodes().subList(0, Math.min(3, dataNodes().size())) : given;
    }

    /**
     * Returns where this node's metadata replica runs and with whom.
     *
     * @return the settings
     */
    public MetadataSettings metadataSettings() {
        int offset = config.get(NodeConfigKeys.METADATA_PORT_OFFSET);
        List<String> voters = metadataVoters();
        List<MetadataSettings.Peer> group = joined == null ? List.of() : joined.group();
        List<MetadataSettings.Peer> peers = new ArrayList<>(members.stream().filter(m -> group.isEmpty()
                || m.id().equals(nodeId())).map(m -> new MetadataSettings.Peer(m.id(), m.address().getHostString()
                + ":" + (m.address().getPort() + offset), voters.contains(m.id()))).toList());
        group.stream().filter(p -> !p.id().equals(nodeId())).forEach(peers::add);
        return new MetadataSettings(nodeId(), peers, listenAddress().getHostString(),
                listenAddress().getPort() + offset, dataDir().resolve("meta"), clusterSecret(),
                java.time.Duration.ofMillis(config.get(NodeConfigKeys.METADATA_ELECTION_TIMEOUT_MS)),
                config.get(NodeConfigKeys.METADATA_SNAPSHOT_EVERY),
                java.time.Duration.ofMillis(config.get(NodeConfigKeys.METADATA_TIMEOUT_MS)), !joinSeeds().isEmpty(),
                config.get(NodeConfigKeys.METADATA_LOG_SEGMENT_KB) * 1024L);
    }

    /**
     * Returns the cluster secret, from {@code cluster.secret} or the file {@code cluster.secret-file} names.
     *
     * @return the secret, or {@code null} in a one-node cluster that sets none
     * @throws ConfigException if both or (with more than one node) neither are set, the file cannot be read, or
     *                         the secret is shorter than 16 characters
     */
    public String clusterSecret() {
        String inline = config.get(NodeConfigKeys.CLUSTER_SECRET);
        String file = config.get(NodeConfigKeys.CLUSTER_SECRET_FILE);
        if (!inline.isEmpty() && !file.isBlank()) {
            throw new ConfigException("set cluster.secret or cluster.secret-file, not both");
        }
        String secret = file.isBlank() ? inline.trim() : readSecret(Path.of(file));
        if (secret.isEmpty()) {
            if (members.size() > 1) {
                throw new ConfigException("cluster.secret (or cluster.secret-file) is not set in " + source + ": the "
                        + members.size() + " nodes of cluster.nodes prove to each other that they belong to the "
                        + "cluster with it; give every node the same secret of at least 16 characters, e.g. the "
                        + "output of: openssl rand -hex 32");
            }
            return null;
        }
        if (secret.length() < 16) {
            throw new ConfigException("cluster.secret is " + secret.length() + " characters long: at least 16 are "
                    + "needed");
        }
        return secret;
    }

    private static String readSecret(Path file) {
        try {
            List<String> lines = java.nio.file.Files.readAllLines(file);
            return lines.isEmpty() ? "" : lines.get(0).trim();
        } catch (IOException e) {
            throw new ConfigException("cannot read cluster.secret-file " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Returns the settings the rules read through their global {@code config}.
     *
     * @return the rule settings
     */
    public RuleConfig ruleConfig() {
        return new RuleConfig(config.get(NodeConfigKeys.WAL_MULTIPLICITY), strings(NodeConfigKeys.RULES_DOUBLE_LOG),
                strings(NodeConfigKeys.RULES_WRITE_PROTECTED), config.get(NodeConfigKeys.CATCH_UP_THRESHOLD),
                config.get(NodeConfigKeys.CATCH_UP_IDLE_MS), config.get(NodeConfigKeys.RULES_SKEW_RATIO),
                config.get(NodeConfigKeys.RULES_SKEW_MIN_RATE), config.get(NodeConfigKeys.RANGE_SPLIT_KEYS),
                config.get(NodeConfigKeys.RANGE_SPLIT_BYTES), config.get(NodeConfigKeys.BALANCE_RATIO),
                config.get(NodeConfigKeys.BALANCE_MIN_BYTES), config.get(NodeConfigKeys.BALANCE_MAX_DISK_USED),
                shedDiskUsedPercent());
    }

    /** The shedding limit: as set, or by default 95 or the intake limit if that is higher (so that it is valid). */
    private double shedDiskUsedPercent() {
        double shed = config.get(NodeConfigKeys.BALANCE_SHED_DISK_USED);
        return config.isSet(NodeConfigKeys.BALANCE_SHED_DISK_USED) ? shed
                : Math.max(shed, config.get(NodeConfigKeys.BALANCE_MAX_DISK_USED));
    }

    @SuppressWarnings("rawtypes")
    private List<String> strings(ConfigKey<List> key) {
        return ((List<?>) config.get(key)).stream().map(String::valueOf).toList();
    }

    /**
     * Returns the user rules directory.
     *
     * @return the directory, or {@code null} when {@code rules.dir} is empty
     */
    public Path rulesDir() {
        String dir = config.get(NodeConfigKeys.RULES_DIR);
        return dir.isBlank() ? null : Path.of(dir);
    }

    /**
     * Returns the ids of the log nodes, in configuration order.
     *
     * @return log node ids (empty: data nodes log nothing beyond their stores)
     */
    public List<String> logNodes() {
        return members.stream().filter(m -> m.role() == ClusterMember.Role.LOG).map(ClusterMember::id).toList();
    }

    /**
     * Returns the log nodes a data node's ledgers go to first: {@code wal.multiplicity} of them, or 2 when
     * {@code rules.double-log-prefixes} is set (every entry of its ledgers must be held by that many before it is
     * acknowledged), starting at the data node's position, so data nodes spread over the log nodes.
     *
     * @param dataNode a data node id
     * @return its log nodes, empty if the cluster has none
     */
    public List<String> logNodesOf(String dataNode) {
        List<String> logs = logNodes();
        if (logs.isEmpty()) {
            return List.of();
        }
        int start = dataNodes().indexOf(dataNode);
        int m = Math.min(logs.size(), Math.max(config.get(NodeConfigKeys.WAL_MULTIPLICITY),
                config.get(NodeConfigKeys.RULES_DOUBLE_LOG).isEmpty() ? 1 : 2));
        List<String> mine = new ArrayList<>();
        for (int j = 0; j < m; j++) {
            mine.add(logs.get((start + j) % logs.size()));
        }
        return mine;
    }

    /**
     * Returns a key's effective value.
     *
     * @param key the key
     * @param <T> its type
     * @return the value
     */
    public <T> T get(ConfigKey<T> key) {
        return config.get(key);
    }

    /**
     * Returns this node's id.
     *
     * @return the id
     */
    public String nodeId() {
        return config.get(NODE_ID);
    }

    /**
     * Returns this node's member entry.
     *
     * @return the entry
     */
    public ClusterMember self() {
        return members.stream().filter(m -> m.id().equals(nodeId())).findFirst().orElseThrow();
    }

    /**
     * Returns the address to bind.
     *
     * @return node.listen, or this node's member address
     */
    public InetSocketAddress listenAddress() {
        String listen = config.get(NodeConfigKeys.LISTEN);
        return listen.isBlank() ? self().address() : ClusterMember.parseAddress(listen);
    }

    /**
     * Returns the data directory of this node.
     *
     * @return node.data-dir/node.id
     */
    public Path dataDir() {
        return Path.of(config.get(NodeConfigKeys.DATA_DIR)).resolve(nodeId());
    }

    /**
     * Returns every member.
     *
     * @return members in configuration order
     */
    public List<ClusterMember> members() {
        return members;
    }

    /**
     * Returns the ids of the data nodes, in configuration order.
     *
     * @return data node ids
     */
    public List<String> dataNodes() {
        return members.stream().filter(m -> m.role() == ClusterMember.Role.DATA).map(ClusterMember::id).toList();
    }

    /**
     * Returns the initial split points.
     *
     * @return sorted keys; empty for an even split
     */
    public List<byte[]> splitPoints() {
        return splitPoints;
    }

    /**
     * Returns the value limits.
     *
     * @return the limits
     */
    public Limits limits() {
        return new Limits(Limits.MAX_KEY_BYTES, maxValueBytes());
    }

    int maxValueBytes() {
        return config.get(NodeConfigKeys.MAX_VALUE_BYTES);
    }

    /**
     * Returns every key with its effective value, for the start-up log.
     *
     * @return sorted name to value
     */
    public Map<String, Object> effective() {
        return config.effective();
    }
}
