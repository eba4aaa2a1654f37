package org.autodisk.it.containers;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The shape of a cluster to run in containers: data nodes {@code d1..dN}, log nodes {@code l1..lM}, the log
 * multiplicity ({@code wal.multiplicity}: how many log nodes must hold each change; passed to the nodes only when
 * there are log nodes), the directory kind, split points and any other configuration (environment variables or
 * a YAML file every node reads; the environment overrides the file). Build one with
 * {@link #builder(String)}, then {@link #start(String)} it.
 */
public final class ClusterTopology {

    private final String name;
    private final List<String> dataNodes;
    private final List<String> logNodes;
    private final int multiplicity;
    private final String directory;
    private final List<String> splitPoints;
    private final Map<String, String> env;
    private final int hostPortBase;
    private final boolean persistentStores;
    private final String configYaml;
    /** The cluster secret every node of this topology shares, new for each topology. */
    private final String secret = java.util.UUID.randomUUID() + "-" + java.util.UUID.randomUUID();

    private ClusterTopology(Builder b) {
        this.name = b.name;
        this.dataNodes = ids("d", b.dataNodes);
        this.logNodes = ids("l", b.logNodes);
        this.multiplicity = b.multiplicity;
        this.directory = b.directory;
        this.splitPoints = List.copyOf(b.splitPoints);
        this.env = Map.copyOf(b.env);
        this.hostPortBase = b.hostPortBase;
        this.persistentStores = b.persistentStores;
        this.configYaml = b.configYaml;
    }

    /**
     * Starts describing a cluster.
     *
     * @param name a short name: container logs and volumes are named after it
     * @return a builder with one data node, no log nodes, multiplicity 1, range directory
     */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    private static List<String> ids(String prefix, int count) {
        List<String> ids = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            ids.add(prefix + i);
        }
        return List.copyOf(ids);
    }

    /** @return the cluster's name */
    public String name() {
        return name;
    }

    /** @return data node ids, in order */
    public List<String> dataNodes() {
        return dataNodes;
    }

    /** @return log node ids, in order */
    public List<String> logNodes() {
        return logNodes;
    }

    /** @return every node id: data nodes, then log nodes */
    public List<String> nodeIds() {
        List<String> all = new ArrayList<>(dataNodes);
        all.addAll(logNodes);
        return List.copyOf(all);
    }

    /** @return the log multiplicity ({@code wal.multiplicity}) */
    public int multiplicity() {
        return multiplicity;
    }

    /** @return whether each node's store lives in a named volume that survives its container */
    public boolean persistentStores() {
        return persistentStores;
    }

    /** @return the host port of the first node's client port, or 0 if Docker chooses them (see Builder#hostPorts) */
    public int hostPortBase() {
        return hostPortBase;
    }

    /** @return the YAML configuration every node reads besides its environment, or empty for none */
    public String configYaml() {
        return configYaml;
    }

    /**
     * The role of one node.
     *
     * @param id a node id of this topology
     * @return {@code data} or {@code log}
     */
    public String role(String id) {
        if (dataNodes.contains(id)) {
            return "data";
        }
        if (logNodes.contains(id)) {
            return "log";
        }
        throw new IllegalArgumentException("no node " + id + " in " + nodeIds());
    }

    /** @return the {@code cluster.nodes} value: {@code d1=data@d1:7400,...}, addresses by network alias */
    public String clusterNodes() {
        return nodeIds().stream().map(id -> id + "=" + role(id) + "@" + id + ":" + AutoDiskNodeContainer.PORT)
                .collect(Collectors.joining(","));
    }

    /** @return the environment every node gets (besides its own id) */
    public Map<String, String> nodeEnvironment() {
        Map<String, String> all = new LinkedHashMap<>();
        all.put("AUTODISK_CLUSTER_NODES", clusterNodes());
        all.put("AUTODISK_CLUSTER_SECRET", secret);
        all.put("AUTODISK_CLUSTER_DIRECTORY", directory);
        if (!logNodes.isEmpty()) {
            all.put("AUTODISK_WAL_MULTIPLICITY", String.valueOf(multiplicity));
        }
        if (!splitPoints.isEmpty()) {
            all.put("AUTODISK_CLUSTER_SPLIT_POINTS", String.join(",", splitPoints));
        }
        all.put("JAVA_OPTS", "-Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:+ExitOnOutOfMemoryError");
        all.putAll(env);
        return all;
    }

    /**
     * Starts one container per node on a new network and waits until every node serves.
     *
     * @param image the node image
     * @return the running cluster; close it to stop the containers and remove network and volumes
     */
    public ContainerCluster start(String image) {
        return ContainerCluster.start(this, image);
    }

    @Override
    public String toString() {
        return name + ": data " + dataNodes + ", log " + logNodes + ", multiplicity " + multiplicity + ", directory "
                + directory + (splitPoints.isEmpty() ? "" : ", split points " + splitPoints);
    }

    /** Describes a cluster step by step. */
    public static final class Builder {

        private final String name;
        private int dataNodes = 1;
        private int logNodes;
        private int multiplicity = 1;
        private String directory = "range";
        private List<String> splitPoints = List.of();
        private final Map<String, String> env = new LinkedHashMap<>();
        private boolean persistentStores;
        private String configYaml = "";
        private int hostPortBase;

        private Builder(String name) {
            if (!name.matches("[a-z0-9][a-z0-9-]*")) {
                throw new IllegalArgumentException("cluster name must be lower-case letters, digits, dashes: " + name);
            }
            this.name = name;
        }

        /**
         * @param count data nodes d1..dN (at least 1)
         * @return this
         */
        public Builder dataNodes(int count) {
            if (count < 1) {
                throw new IllegalArgumentException("a cluster needs at least one data node");
            }
            this.dataNodes = count;
            return this;
        }

        /**
         * @param count log nodes l1..lM (0 or more)
         * @return this
         */
        public Builder logNodes(int count) {
            if (count < 0) {
                throw new IllegalArgumentException("negative log node count");
            }
            this.logNodes = count;
            return this;
        }

        /**
         * @param copies how many log nodes must hold each change before it is applied (1 or 2)
         * @return this
         */
        public Builder multiplicity(int copies) {
            if (copies < 1 || copies > 2) {
                throw new IllegalArgumentException("multiplicity must be 1 or 2");
            }
            this.multiplicity = copies;
            return this;
        }

        /**
         * @param kind the {@code cluster.directory} kind ({@code range} or {@code fat-btree})
         * @return this
         */
        public Builder directory(String kind) {
            this.directory = kind;
            return this;
        }

        /**
         * @param keys {@code cluster.split-points}, text or {@code 0x}-hex
         * @return this
         */
        public Builder splitPoints(String... keys) {
            this.splitPoints = List.of(keys);
            return this;
        }

        /**
         * Sets any configuration key for every node.
         *
         * @param variable the environment variable, e.g. {@code AUTODISK_QUEUE_WORKERS}
         * @param value    its value
         * @return this
         */
        public Builder env(String variable, String value) {
            env.put(variable, value);
            return this;
        }

        /**
         * @param persistent keep each store in a named volume so a node can be restarted on it
         * @return this
         */
        public Builder persistentStores(boolean persistent) {
            this.persistentStores = persistent;
            return this;
        }

        /**
         * Gives every node a YAML configuration file ({@code autodisk node --config}); what the topology sets
         * through the environment (ids, members, directory, multiplicity, {@link #env}) overrides it.
         *
         * @param yaml configuration lines, e.g. {@code store.engine: memory}
         * @return this
         */
        public Builder configYaml(String yaml) {
            this.configYaml = yaml;
            return this;
        }

        /**
         * Publishes every node's client port on a fixed host port, the same after a restart of its container:
         * {@code base} for the first node, then one up per node (data nodes first).
         *
         * @param base the first host port; 0 for ports Docker chooses anew at every start (the default)
         * @return this
         */
        public Builder hostPorts(int base) {
            this.hostPortBase = base;
            return this;
        }

        /** @return the topology */
        public ClusterTopology build() {
            if (logNodes > 0 && multiplicity > logNodes) {
                throw new IllegalArgumentException("multiplicity " + multiplicity + " exceeds the " + logNodes
                        + " log nodes");
            }
            return new ClusterTopology(this);
        }
    }
}
