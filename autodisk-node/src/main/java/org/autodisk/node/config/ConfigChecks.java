package org.autodisk.node.config;

import static org.autodisk.node.config.NodeConfigKeys.CLUSTER_NODES;
import static org.autodisk.node.config.NodeConfigKeys.DIRECTORY;
import static org.autodisk.node.config.NodeConfigKeys.NODE_ID;
import static org.autodisk.node.config.NodeConfigKeys.SPLIT_POINTS;
import static org.autodisk.node.config.NodeConfigKeys.STORE_ENGINE;

import java.util.List;
import org.autodisk.core.Limits;
import org.autodisk.core.config.Config;
import org.autodisk.core.config.ConfigException;
import org.autodisk.core.config.ConfigKey;

/**
 * The checks of a node's effective configuration, whatever its sources: impossible values and combinations are
 * refused with the key, the value and where it came from.
 */
final class ConfigChecks {

    private final NodeConfig node;
    private final Config config;

    ConfigChecks(NodeConfig node, Config config) {
        this.node = node;
        this.config = config;
    }

    void run() {
        String id = node.nodeId();
        if (node.members().stream().noneMatch(m -> m.id().equals(id))) {
            throw new ConfigException("node.id '" + id + "' (from " + config.origin(NODE_ID) + ") is not in "
                    + config.describe(CLUSTER_NODES));
        }
        validateJoin();
        if (node.dataNodes().isEmpty()) {
            throw new ConfigException(config.describe(CLUSTER_NODES) + " has no data node");
        }
        validateDirectory();
        String engine = config.get(STORE_ENGINE);
        if (!"rocksdb".equals(engine) && !"memory".equals(engine)) {
            throw new ConfigException(config.describe(STORE_ENGINE) + " is unknown (expected rocksdb or memory)");
        }
        validateNumbers();
        if (config.get(NodeConfigKeys.CLUSTER_JOIN).isEmpty()) {
            validateLog(); // a joining node learns the log nodes from the cluster: checked then (checkJoined)
        }
        validateSplitPoints();
        node.clusterSecret();
        validateMetadata();
        validatePorts();
        if (config.get(NodeConfigKeys.TLS_ENABLED) && config.get(NodeConfigKeys.TLS_KEY_STORE).isBlank()) {
            throw new ConfigException(config.describe(NodeConfigKeys.TLS_ENABLED) + " but tls.key-store is not set: "
                    + "a node serving TLS needs its key and certificate (a PKCS#12 file, e.g. from keytool "
                    + "-genkeypair -storetype PKCS12)");
        }
    }

    private void validateNumbers() {
        for (ConfigKey<?> k : NodeConfigKeys.ALL) {
            int least = NodeConfigKeys.MAY_BE_ZERO.contains(k) ? 0 : 1;
            if (config.get(k) instanceof Number n && !(n instanceof Double) && n.longValue() < least) {
                throw new ConfigException(config.describe(k) + " must be at least " + least);
            }
        }
        if (node.maxValueBytes() > Integer.MAX_VALUE - Limits.FRAME_OVERHEAD_BYTES) {
            throw new ConfigException(config.describe(NodeConfigKeys.MAX_VALUE_BYTES) + " leaves no room for a "
                    + "frame: at most " + (Integer.MAX_VALUE - Limits.FRAME_OVERHEAD_BYTES));
        }
        if (config.get(NodeConfigKeys.WAL_SEGMENT_BYTES) < 1024) {
            throw new ConfigException(config.describe(NodeConfigKeys.WAL_SEGMENT_BYTES) + " must be at least 1024");
        }
        if (config.get(NodeConfigKeys.RULES_SKEW_RATIO) <= 1.0) {
            throw new ConfigException(config.describe(NodeConfigKeys.RULES_SKEW_RATIO) + " must be above 1.0");
        }
        double full = config.get(NodeConfigKeys.BALANCE_MAX_DISK_USED);
        if (!(full > 0 && full <= 100)) {
            throw new ConfigException(config.describe(NodeConfigKeys.BALANCE_MAX_DISK_USED) + " must be above 0 and "
                    + "at most 100 (a percentage of the disk)");
        }
        double shed = config.get(NodeConfigKeys.BALANCE_SHED_DISK_USED);
        if (!(shed <= 100) || config.isSet(NodeConfigKeys.BALANCE_SHED_DISK_USED) && !(shed >= full)) {
            throw new ConfigException(config.describe(NodeConfigKeys.BALANCE_SHED_DISK_USED) + " must be at least "
                    + config.describe(NodeConfigKeys.BALANCE_MAX_DISK_USED) + " and at most 100: a range moved off a "
                    + "fuller disk must not be moved back onto it");
        }
        validateFailures();
    }

    private void validateFailures() {
        int suspect = config.get(NodeConfigKeys.FAILURE_SUSPECT_MS);
        if (suspect > 0 && suspect < 2 * config.get(NodeConfigKeys.FAILURE_HEARTBEAT_MS)) {
            throw new ConfigException(config.describe(NodeConfigKeys.FAILURE_SUSPECT_MS) + " must be at least twice "
                    + config.describe(NodeConfigKeys.FAILURE_HEARTBEAT_MS) + ", or a node that merely missed one "
                    + "heartbeat is suspected");
        }
        if (config.get(NodeConfigKeys.LEASE_MS) < 100) {
            throw new ConfigException(config.describe(NodeConfigKeys.LEASE_MS) + " must be at least 100: it is "
                    + "renewed every quarter of it");
        }
    }

    private void validateDirectory() {
        String kind = config.get(DIRECTORY);
        if (!"range".equals(kind) && !"fat-btree".equals(kind)) {
            throw new ConfigException(config.describe(DIRECTORY) + " is unknown (expected range or fat-btree)");
        }
        int fanout = config.get(NodeConfigKeys.DIRECTORY_FANOUT);
        if (fanout < 3 || fanout > 4096) {
            throw new ConfigException(config.describe(NodeConfigKeys.DIRECTORY_FANOUT) + " must be 3 to 4096");
        }
    }

    /** The checks that need the members of the cluster a node joins, made once it learnt them. */
    void checkJoined() {
        validateLog();
    }

    private void validateLog() {
        int m = config.get(NodeConfigKeys.WAL_MULTIPLICITY);
        int logs = node.logNodes().size();
        if (m > 2 || (m > logs && (logs > 0 || config.isSet(NodeConfigKeys.WAL_MULTIPLICITY) && m > 1))) {
            throw new ConfigException(config.describe(NodeConfigKeys.WAL_MULTIPLICITY) + " needs 1 or 2 and at most "
                    + "the number of log nodes, but " + config.describe(CLUSTER_NODES) + " has " + logs
                    + " log node(s)");
        }
        if (!config.get(NodeConfigKeys.RULES_DOUBLE_LOG).isEmpty() && logs < 2) {
            throw new ConfigException(config.describe(NodeConfigKeys.RULES_DOUBLE_LOG) + " needs at least 2 log "
                    + "nodes, but " + config.describe(CLUSTER_NODES) + " has " + logs);
        }
    }

    private void validateSplitPoints() {
        int ranges = node.splitPoints().size() + 1;
        List<String> data = node.dataNodes();
        if (!node.splitPoints().isEmpty() && ranges < data.size()) {
            throw new ConfigException(config.describe(SPLIT_POINTS) + " makes " + ranges + " ranges for the "
                    + data.size() + " data nodes of " + config.describe(CLUSTER_NODES) + ": "
                    + String.join(", ", data.subList(ranges, data.size())) + " would own no range; give at least "
                    + (data.size() - 1) + " split points, or none for an even split");
        }
    }

    private void validateJoin() {
        if (config.get(NodeConfigKeys.CLUSTER_JOIN).isEmpty()) {
            return;
        }
        if (node.self().role() != ClusterMember.Role.DATA) {
            throw new ConfigException(config.describe(NodeConfigKeys.CLUSTER_JOIN) + ", but " + node.nodeId()
                    + " is a " + node.self().role().label() + " node: only a data node joins a running cluster");
        }
        if (!config.get(NodeConfigKeys.METADATA_VOTERS).isEmpty()) {
            throw new ConfigException(config.describe(NodeConfigKeys.METADATA_VOTERS) + " and "
                    + config.describe(NodeConfigKeys.CLUSTER_JOIN) + ": a joining node follows the voters of the "
                    + "cluster it joins; leave metadata.voters unset");
        }
        for (Object seed : config.get(NodeConfigKeys.CLUSTER_JOIN)) {
            ClusterMember.parseAddress(String.valueOf(seed));
        }
    }

    private void validateMetadata() {
        for (Object v : config.get(NodeConfigKeys.METADATA_VOTERS)) {
            if (node.members().stream().noneMatch(m -> m.id().equals(String.valueOf(v)))) {
                throw new ConfigException(config.describe(NodeConfigKeys.METADATA_VOTERS) + " names '" + v
                        + "', which is not in " + config.describe(CLUSTER_NODES));
            }
        }
        int offset = config.get(NodeConfigKeys.METADATA_PORT_OFFSET);
        for (ClusterMember m : node.members()) {
            int port = m.address().getPort() + offset;
            if (port > 65535) {
                throw new ConfigException(config.describe(NodeConfigKeys.METADATA_PORT_OFFSET) + " puts the "
                        + "metadata port of " + m.id() + " at " + port + ", above 65535");
            }
        }
        int bound = node.listenAddress().getPort() + offset;
        if (bound > 65535) {
            throw new ConfigException(config.describe(NodeConfigKeys.METADATA_PORT_OFFSET) + " puts the metadata "
                    + "port this node listens on (node.listen + offset) at " + bound + ", above 65535");
        }
    }

    /** The metrics port must not take a port the node or its metadata replica listens on. */
    private void validatePorts() {
        int metrics = config.get(NodeConfigKeys.METRICS_HTTP_PORT);
        int own = node.listenAddress().getPort();
        int meta = node.listenAddress().getPort() + config.get(NodeConfigKeys.METADATA_PORT_OFFSET);
        if (metrics > 65535) {
            throw new ConfigException(config.describe(NodeConfigKeys.METRICS_HTTP_PORT) + " is above 65535");
        }
        if (metrics == own || metrics == meta) {
            throw new ConfigException(config.describe(NodeConfigKeys.METRICS_HTTP_PORT) + " is the port this node "
                    + "already listens on for " + (metrics == own ? "requests (node.listen / cluster.nodes)"
                    : "the metadata (its listen port + metadata.port-offset)"));
        }
    }
}
