package org.autodisk.node;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.node.config.NodeConfig;

/**
 * An in-process cluster of real nodes on loopback: each node has its own Netty server, TCP peer channels and
 * store (RocksDB under a directory, or in memory). Data nodes d1..dN are nodes 0..N-1, log nodes l1..lM follow.
 * Nodes can be stopped and restarted on the same data, with their own settings or faults.
 */
public final class MiniCluster implements AutoCloseable {

    /** The cluster secret of the test clusters. */
    public static final String SECRET = "test-cluster-secret-0123456789";

    /** Metadata ports are node ports plus this: node ports lie in 20000..26000, metadata ports in 26000..32000. */
    static final int METADATA_PORT_OFFSET = 6000;

    private final Path dir;
    private final Map<String, Object> extra;
    private final List<String> ids = new ArrayList<>();
    private final List<String> roles = new ArrayList<>();
    /** The system property numbering this test JVM among those that run at once (surefire's fork number). */
    static final String FORK_PROPERTY = "autodisk.test.fork";
    /** The system property saying how many test JVMs run at once. */
    static final String FORKS_PROPERTY = "autodisk.test.forks";
    private static final java.util.Set<Integer> HANDED_OUT = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private final List<Integer> ports = new ArrayList<>();
    /** Indexes of the data nodes that joined the running cluster (their configuration names only themselves). */
    private final java.util.Set<Integer> joined = new java.util.HashSet<>();
    private final List<AutoDiskNode> nodes = new ArrayList<>();
    private final List<AutoDiskClient> clients = new ArrayList<>();

    private final Path dataDir;

    private MiniCluster(Path dir, Map<String, Object> extra) {
        this.dir = dir;
        this.extra = extra;
        try {
            this.dataDir = dir != null ? dir : Files.createTempDirectory("minicluster");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Starts data nodes d1..dN.
     *
     * @param dataNodes how many
     * @param dir       RocksDB data under this directory, or {@code null} for in-memory stores
     * @param extra     extra dotted configuration keys for every node
     * @return the started cluster
     */
    public static MiniCluster start(int dataNodes, Path dir, Map<String, Object> extra) {
        return start(dataNodes, 0, dir, extra);
    }

    /**
     * Starts log nodes l1..lM, then data nodes d1..dN.
     *
     * @param dataNodes how many data nodes
     * @param logNodes  how many log nodes
     * @param dir       RocksDB data and log segments under this directory, or {@code null} to keep them in memory
     * @param extra     extra dotted configuration keys for every node
     * @return the started cluster
     */
    public static MiniCluster start(int dataNodes, int logNodes, Path dir, Map<String, Object> extra) {
        MiniCluster c = new MiniCluster(dir, extra);
        for (int i = 0; i < dataNodes + logNodes; i++) {
            c.ids.add(i < dataNodes ? "d" + (i + 1) : "l" + (i - dataNodes + 1));
            c.roles.add(i < dataNodes ? "data" : "log");
            c.ports.add(freePort());
            c.nodes.add(null);
        }
        for (int i = dataNodes; i < dataNodes + logNodes; i++) {
            c.startNode(i);
        }
        for (int i = 0; i < dataNodes; i++) {
            c.startNode(i);
        }
        c.awaitMetadata();
        return c;
    }

    /** Waits until every running node has the cluster's ranges (the metadata was created and replicated). */
    public void awaitMetadata() {
        await().atMost(Duration.ofSeconds(60)).until(() -> nodes.stream().allMatch(n -> n == null
                || n.directory().ready()));
    }

    /**
     * A free loopback port below the kernel's ephemeral range (32768 and up), so that no outgoing connection takes
     * it while its node is down between a stop and a restart; its metadata port ({@link #METADATA_PORT_OFFSET}
     * above it) is free too. A port is handed out once per JVM: two nodes of one cluster, which bind only when
     * they start, never draw the same port. When the tests run in several JVMs at once (surefire forks, numbered
     * from 1 in {@value #FORK_PROPERTY}), each JVM draws from its own slice of that range, so a port one JVM holds
     * for a stopped node is never handed out by another.
     */
    private static int freePort() {
        java.util.Random random = new java.util.Random();
        int forks = Math.max(1, Integer.getInteger(FORKS_PROPERTY, 1));
        int fork = Math.floorMod(forkNumber(forks) - 1, forks);
        int slice = 6_000 / forks;
        for (int attempt = 0; attempt < 200; attempt++) {
            int port = 20_000 + fork * slice + random.nextInt(slice);
            if (bindable(port) && bindable(port + METADATA_PORT_OFFSET) && HANDED_OUT.add(port)) {
                return port;
            }
        }
        throw new UncheckedIOException(new IOException("no free port pair found in 20000..32000"));
    }

    /**
     * This JVM's number among the test JVMs running at once, from 1: surefire's fork number, passed as {@code forkN}.
     * Without one, several JVMs would draw from one slice, so a missing number is an error then.
     */
    private static int forkNumber(int forks) {
        String given = System.getProperty(FORK_PROPERTY, "").replaceAll("\\D", "");
        if (!given.isEmpty()) {
            return Integer.parseInt(given);
        }
        if (forks > 1) {
            throw new IllegalStateException(forks + " test JVMs run at once but " + FORK_PROPERTY + " does not number "
                    + "this one (" + System.getProperty(FORK_PROPERTY) + "): they would draw the same ports");
        }
        return 1;
    }

    /**
     * A free loopback port below the kernel's ephemeral range, so that no outgoing connection can take it between the
     * test's choice and its bind.
     *
     * @return the port
     */
    public static int freeFixedPort() {
        return freePort();
    }

    private static boolean bindable(int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Returns the configuration of node {@code i}.
     *
     * @param i node index
     * @return its configuration
     */
    public NodeConfig config(int i) {
        return config(i, Map.of());
    }

    /**
     * Returns the configuration of node {@code i} with some keys set differently.
     *
     * @param i         node index
     * @param overrides dotted keys that replace the cluster's
     * @return its configuration
     */
    public NodeConfig config(int i, Map<String, Object> overrides) {
        Map<String, Object> cfg = new HashMap<>(extra);
        cfg.putAll(overrides);
        cfg.put("node.id", ids.get(i));
        List<String> members = new ArrayList<>();
        for (int j = 0; j < ids.size(); j++) {
            if (joined.contains(i) ? j == i : !joined.contains(j)) {
                members.add(ids.get(j) + "=" + roles.get(j) + "@127.0.0.1:" + ports.get(j));
            }
        }
        cfg.put("cluster.nodes", members);
        if (joined.contains(i)) {
            cfg.put("cluster.join", List.of(address(0)));
        }
        cfg.putIfAbsent("cluster.secret", SECRET);
        cfg.put("store.engine", dir == null ? "memory" : "rocksdb");
        cfg.put("node.data-dir", dataDir.toString());
        cfg.putIfAbsent("metadata.port-offset", METADATA_PORT_OFFSET);
        cfg.putIfAbsent("metadata.election-timeout-ms", 300);
        cfg.putIfAbsent("balance.check-ms", 0);
        // what the balance rules move must not depend on how full the test machine's disk is
        cfg.putIfAbsent("balance.max-disk-used-percent", 100.0);
        // tests that stop nodes to check something else want no failover; the failover tests turn detection on
        cfg.putIfAbsent("failure.suspect-ms", 0);
        return NodeConfig.of(cfg);
    }

    /**
     * Starts (or restarts) node {@code i} on its port and data.
     *
     * @param i node index
     */
    public void startNode(int i) {
        startNode(i, Map.of(), b -> { });
    }

    /**
     * Starts (or restarts) node {@code i} with some keys set differently or a fault at start-up.
     *
     * @param i         node index
     * @param overrides dotted keys that replace the cluster's
     * @param builder   changes the node's builder (a fault hook, say)
     */
    public void startNode(int i, Map<String, Object> overrides, Consumer<AutoDiskNode.Builder> builder) {
        AutoDiskNode.Builder b = AutoDiskNode.builder(config(i, overrides));
        builder.accept(b);
        try {
            nodes.set(i, b.start());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Starts a new data node that joins the running cluster through node 0 ({@code cluster.join}); its configuration
     * names only itself, and the nodes started before it do not name it.
     *
     * @param overrides dotted keys that replace the cluster's
     * @return the new node's index
     */
    public int join(Map<String, Object> overrides) {
        int i = addJoiner();
        startNode(i, overrides, b -> { });
        return i;
    }

    /**
     * Adds a data node that joins the running cluster through node 0 when {@link #startNode started}.
     *
     * @return the new node's index
     */
    public int addJoiner() {
        int i = ids.size();
        ids.add("d" + (ids.stream().filter(id -> id.startsWith("d")).count() + 1));
        roles.add("data");
        ports.add(freePort());
        nodes.add(null);
        joined.add(i);
        return i;
    }

    /**
     * Stops node {@code i} gracefully.
     *
     * @param i node index
     */
    public void stopNode(int i) {
        nodes.get(i).close();
        nodes.set(i, null);
    }

    /**
     * Returns node {@code i}.
     *
     * @param i node index
     * @return the node, or {@code null} if stopped
     */
    public AutoDiskNode node(int i) {
        return nodes.get(i);
    }

    /**
     * Returns the address of node {@code i}.
     *
     * @param i node index
     * @return 127.0.0.1:port
     */
    public String address(int i) {
        return "127.0.0.1:" + ports.get(i);
    }

    /**
     * Returns a client connected to node {@code i} only; closed with the cluster.
     *
     * @param i node index
     * @return the client
     */
    public AutoDiskClient clientOf(int i) {
        AutoDiskClient c = AutoDiskClient.builder().seeds(address(i)).build();
        clients.add(c);
        return c;
    }

    /**
     * Returns a client connected to node {@code i} only that gives up after two seconds (a request the cluster
     * refuses for now is sent again until then): for a test that expects a failure. Closed with the cluster.
     *
     * @param i node index
     * @return the client
     */
    public AutoDiskClient impatientClientOf(int i) {
        AutoDiskClient c = AutoDiskClient.builder().seeds(address(i)).requestTimeout(Duration.ofSeconds(2)).build();
        clients.add(c);
        return c;
    }

    /**
     * Returns the id of node {@code i}.
     *
     * @param i node index
     * @return e.g. {@code d2} or {@code l1}
     */
    public String id(int i) {
        return ids.get(i);
    }

    /**
     * Returns the number of nodes.
     *
     * @return the size
     */
    public int size() {
        return ids.size();
    }

    @Override
    public void close() {
        clients.forEach(AutoDiskClient::close);
        for (AutoDiskNode n : nodes) {
            if (n != null) {
                n.close();
            }
        }
        if (dir == null) {
            deleteTree(dataDir);
        }
    }

    private static void deleteTree(Path root) {
        try (java.util.stream.Stream<Path> files = Files.walk(root)) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            System.err.println("could not delete " + root + ": " + e);
        }
    }
}
