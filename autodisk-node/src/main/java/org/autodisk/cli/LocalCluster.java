package org.autodisk.cli;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.client.AutoDiskException;
import org.autodisk.core.config.ConfigException;
import org.autodisk.core.config.ConfigLayer;
import org.autodisk.node.config.NodeConfig;
import org.autodisk.node.config.NodeConfigKeys;

/**
 * A cluster of separate node processes on 127.0.0.1: writes one YAML file per node, starts each node with
 * this JVM's java and class path, waits until every node answers, and stops them all gracefully.
 */
public final class LocalCluster implements AutoCloseable {

    /** Environment variable with extra JVM flags for every started node, e.g. a JFR recording. */
    static final String NODE_OPTS = "AUTODISK_NODE_OPTS";
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final String SECRET_FILE = "cluster.secret";

    private final Path dir;
    private final List<String> ids = new ArrayList<>();
    private final List<String> addresses = new ArrayList<>();
    private final List<String> listens = new ArrayList<>();
    private final List<Process> processes = new ArrayList<>();

    private final List<String> splitPoints;
    private final int dataNodes;
    private boolean deleteOnClose;
    /** Nodes killed and not restarted, or paused: a restart of another node does not wait for them. */
    private final Set<Integer> killed = ConcurrentHashMap.newKeySet();
    private final Set<Integer> paused = ConcurrentHashMap.newKeySet();
    /** Stops the nodes when this JVM exits before {@link #close()} (SIGTERM, Ctrl-C): no node outlives its starter. */
    private final Thread onExit = new Thread(this::stopAll, "local-cluster-stop");

    private LocalCluster(Path dir, List<String> splitPoints, int dataNodes) {
        this.dir = dir;
        this.splitPoints = List.copyOf(splitPoints);
        this.dataNodes = dataNodes;
    }

    /**
     * Starts a cluster and waits until every node serves.
     *
     * @param dir        where configuration, data and logs go
     * @param dataNodes  how many data nodes (d1, d2, ...)
     * @param logNodes   how many log nodes (l1, l2, ...)
     * @param basePort   the first node's port; the others follow
     * @param splitPoints keys where ranges start (empty: split evenly by first key byte)
     * @param extraYaml  extra configuration (YAML) for every node (may be empty)
     * @return the running cluster
     * @throws IOException if a file cannot be written or a process not started
     * @throws org.autodisk.core.config.ConfigException if the configuration is refused; nothing started then
     */
    public static LocalCluster start(Path dir, int dataNodes, int logNodes, int basePort, List<String> splitPoints,
            String extraYaml) throws IOException {
        return start(new Layout(dir, dataNodes, logNodes, basePort, splitPoints),
                List.of(new ConfigLayer("the extra settings", LocalSettings.parseYaml(extraYaml))));
    }

    /**
     * Starts a cluster and waits until every node serves. Every node's configuration is checked before any node
     * starts, with errors naming the flag or setting to fix.
     *
     * @param layout   the cluster's shape and where it lives
     * @param settings settings for every node, in order, each naming its source ({@code --set}, a flag)
     * @return the running cluster
     * @throws IOException if a file cannot be written or a process not started
     * @throws org.autodisk.core.config.ConfigException if the configuration is refused; nothing started then
     */
    public static LocalCluster start(Layout layout, List<ConfigLayer> settings) throws IOException {
        layout.check();
        LocalCluster c = new LocalCluster(layout.dir().toAbsolutePath(), layout.splitPoints(), layout.dataNodes());
        for (int i = 1; i <= layout.dataNodes() + layout.logNodes(); i++) {
            c.ids.add(i <= layout.dataNodes() ? "d" + i : "l" + (i - layout.dataNodes()));
            c.addresses.add("127.0.0.1:" + (layout.basePort() + i - 1));
            c.listens.add("127.0.0.1:" + (layout.basePort() + layout.listenOffset() + i - 1));
        }
        Files.createDirectories(c.dir);
        LocalSettings.ensureSecret(c.dir.resolve(SECRET_FILE));
        List<List<ConfigLayer>> configs = new ArrayList<>();
        for (int i = 0; i < c.ids.size(); i++) {
            configs.add(c.checkedLayers(i, layout, settings));
        }
        Runtime.getRuntime().addShutdownHook(c.onExit);
        try {
            for (int i = 0; i < c.ids.size(); i++) {
                c.processes.add(c.launch(i, configs.get(i)));
            }
            c.awaitReady();
        } catch (IOException | RuntimeException e) {
            c.close();
            throw e;
        }
        return c;
    }

    /**
     * A local cluster's shape: how many nodes of each role, where they listen and live, its initial split.
     *
     * @param dir         where configuration, data and logs go
     * @param dataNodes   how many data nodes (d1, d2, ...)
     * @param logNodes    how many log nodes (l1, l2, ...)
     * @param basePort    the first node's port; the others follow
     * @param splitPoints keys where ranges start (empty: split evenly by first key byte)
     * @param listenOffset 0, or how far above its address's port each node listens (its address is then a proxy's,
     *                     which forwards to that port and to the metadata port above it)
     */
    public record Layout(Path dir, int dataNodes, int logNodes, int basePort, List<String> splitPoints,
            int listenOffset) {

        /**
         * Copies the split points.
         *
         * @param dir          where configuration, data and logs go
         * @param dataNodes    how many data nodes
         * @param logNodes     how many log nodes
         * @param basePort     the first node's port
         * @param splitPoints  keys where ranges start
         * @param listenOffset 0, or how far above its address's port each node listens
         */
        public Layout {
            splitPoints = List.copyOf(splitPoints);
        }

        /**
         * A layout where every node listens on its address.
         *
         * @param dir         where configuration, data and logs go
         * @param dataNodes   how many data nodes
         * @param logNodes    how many log nodes
         * @param basePort    the first node's port
         * @param splitPoints keys where ranges start
         */
        public Layout(Path dir, int dataNodes, int logNodes, int basePort, List<String> splitPoints) {
            this(dir, dataNodes, logNodes, basePort, splitPoints, 0);
        }

        void check() {
            if (dataNodes < 1) {
                throw new ConfigException("--data-nodes " + dataNodes + ": a cluster needs at least 1 data node");
            }
            if (logNodes < 0) {
                throw new ConfigException("--log-nodes " + logNodes + ": must be 0 or more");
            }
            if (listenOffset < 0) {
                throw new ConfigException("listen offset " + listenOffset + ": must be 0 or more");
            }
            int last = basePort + listenOffset + dataNodes + logNodes - 1;
            if (basePort < 1 || last > 65535) {
                throw new ConfigException("--base-port " + basePort + " puts the " + (dataNodes + logNodes)
                        + " nodes on ports " + basePort + ".." + last + "; they must lie within 1..65535");
            }
        }

        String describe() {
            return "--data-nodes " + dataNodes + " --log-nodes " + logNodes + " --base-port " + basePort;
        }
    }

    /** The layers of node {@code i}'s configuration, checked as the node will check them. */
    private List<ConfigLayer> checkedLayers(int i, Layout layout, List<ConfigLayer> settings) {
        List<ConfigLayer> layers = new ArrayList<>();
        layers.add(new ConfigLayer(layout.describe(), layoutOf(i)));
        if (!splitPoints.isEmpty()) {
            layers.add(new ConfigLayer("--split-points", Map.of("cluster.split-points", splitPoints)));
        }
        layers.addAll(settings);
        NodeConfig config = NodeConfig.load(null, layers, System.getenv());
        int metrics = config.get(NodeConfigKeys.METRICS_HTTP_PORT);
        if (metrics > 0 && i > 0) {
            layers.add(new ConfigLayer("metrics.http-port + " + i + " for " + ids.get(i),
                    Map.of("metrics.http-port", metrics + i)));
            NodeConfig.load(null, layers, System.getenv());
        }
        return layers;
    }

    private Map<String, Object> layoutOf(int i) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("node.id", ids.get(i));
        if (!listens.get(i).equals(addresses.get(i))) {
            m.put("node.listen", listens.get(i));
        }
        m.put("node.data-dir", dir.resolve("data").toString());
        m.put("cluster.secret-file", dir.resolve(SECRET_FILE).toString());
        List<String> nodes = new ArrayList<>();
        for (int j = 0; j < ids.size(); j++) {
            nodes.add(ids.get(j) + "=" + (j < dataNodes ? "data" : "log") + "@" + addresses.get(j));
        }
        m.put("cluster.nodes", nodes);
        return m;
    }

    /** Writes node {@code i}'s configuration and starts it; its log starts empty. */
    private Process launch(int i, List<ConfigLayer> layers) throws IOException {
        Files.writeString(dir.resolve(ids.get(i) + ".yaml"), LocalSettings.yaml(layers));
        return launch(i, ProcessBuilder.Redirect.to(dir.resolve(ids.get(i) + ".log").toFile()));
    }

    private Process launch(int i, ProcessBuilder.Redirect log) throws IOException {
        Path config = dir.resolve(ids.get(i) + ".yaml");
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse("java"));
        cmd.addAll(jvmFlags());
        cmd.addAll(ClassArchive.flags(ids.get(i)));
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName(), "node", "--config",
                config.toString()));
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log).start();
    }

    private static List<String> jvmFlags() {
        List<String> flags = new ArrayList<>(List.of("-Xmx512m", "-XX:+UseParallelGC", "-XX:MetaspaceSize=128m"));
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (arg.startsWith("--enable-native-access") || arg.startsWith("--sun-misc-unsafe-memory-access")
                    || arg.startsWith("-Dautodisk.")) {
                flags.add(arg);
            }
        }
        String extra = System.getenv(NODE_OPTS);
        if (extra != null && !extra.isBlank()) {
            flags.addAll(List.of(extra.trim().split("\\s+")));
        }
        return flags;
    }

    private void awaitReady() throws IOException {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        for (int i = 0; i < ids.size(); i++) {
            while (!killed.contains(i) && !paused.contains(i) && !answers(addresses.get(i))) {
                if (!processes.get(i).isAlive()) {
                    throw new IOException("node " + ids.get(i) + " exited with code " + processes.get(i).exitValue()
                            + "; its log " + dir.resolve(ids.get(i) + ".log") + " ends with:\n" + tail(i));
                }
                if (System.nanoTime() > deadline) {
                    throw new IOException("node " + ids.get(i) + " did not answer within " + READY_TIMEOUT.toSeconds()
                            + " s; see " + dir.resolve(ids.get(i) + ".log"));
                }
                sleepQuietly(100);
            }
        }
    }

    /** A node is ready once it answers and knows the cluster's ranges (its metadata was created and replicated). */
    private static boolean answers(String address) {
        try (AutoDiskClient c = AutoDiskClient.builder().seeds(address).connectTimeout(Duration.ofMillis(500))
                .requestTimeout(Duration.ofSeconds(5)).build()) {
            return !c.status().ranges().isEmpty();
        } catch (AutoDiskException e) {
            return false;
        }
    }

    private String tail(int i) {
        try {
            List<String> lines = Files.readAllLines(dir.resolve(ids.get(i) + ".log"));
            return lines.subList(Math.max(0, lines.size() - 15), lines.size()).stream()
                    .collect(Collectors.joining("\n"));
        } catch (IOException e) {
            return "(log unreadable: " + e.getMessage() + ")";
        }
    }

    private static void sleepQuietly(long ms) {
        try {
            TimeUnit.MILLISECONDS.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Returns the directory with the nodes' configuration, data ({@code data/<id>}) and logs ({@code <id>.log}).
     *
     * @return the directory
     */
    public Path dir() {
        return dir;
    }

    /**
     * Returns the client seed list: the data nodes (log nodes serve no stream request).
     *
     * @return host:port of every data node, comma-separated
     */
    public String seeds() {
        return String.join(",", addresses.subList(0, dataNodes));
    }

    /**
     * Returns the node addresses in id order (data nodes first).
     *
     * @return host:port list
     */
    public List<String> addresses() {
        return List.copyOf(addresses);
    }

    /**
     * Returns the node ids (d1.., then l1..).
     *
     * @return ids
     */
    public List<String> ids() {
        return List.copyOf(ids);
    }

    /**
     * Returns the node processes, for fault injection in tests.
     *
     * @return processes in id order
     */
    public List<Process> processes() {
        return List.copyOf(processes);
    }

    /**
     * Kills node {@code i} with SIGKILL (no shutdown hook runs), for crash tests.
     *
     * @param i node index (data nodes first, then log nodes)
     * @throws InterruptedException if interrupted while waiting for it to die
     */
    public void kill(int i) throws InterruptedException {
        killed.add(i);
        processes.get(i).destroyForcibly().waitFor();
    }

    /**
     * Pauses node {@code i} with SIGSTOP (as a long garbage collection or a stalled VM would): it keeps its sockets
     * and state but answers nothing until {@link #resume}.
     *
     * @param i node index
     * @throws IOException if the signal cannot be sent
     */
    public void pause(int i) throws IOException {
        signal(i, "STOP");
        paused.add(i);
    }

    /**
     * Lets a paused node go on with SIGCONT.
     *
     * @param i node index
     * @throws IOException if the signal cannot be sent
     */
    public void resume(int i) throws IOException {
        signal(i, "CONT");
        paused.remove(i);
    }

    private void signal(int i, String name) throws IOException {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(processes.get(i).pid()))
                .redirectErrorStream(true).start();
        try {
            if (kill.waitFor() != 0) {
                throw new IOException("kill -" + name + " " + processes.get(i).pid() + " (" + ids.get(i)
                        + ") failed: " + new String(kill.getInputStream().readAllBytes()).trim());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while sending SIG" + name + " to " + ids.get(i), e);
        }
    }

    /**
     * Starts node {@code i} again on its configuration and data and waits until it (and every node not killed)
     * answers.
     *
     * @param i node index
     * @throws IOException if it cannot be started or does not answer
     */
    public void restart(int i) throws IOException {
        killed.remove(i);
        processes.set(i, launch(i, ProcessBuilder.Redirect.appendTo(dir.resolve(ids.get(i) + ".log").toFile())));
        awaitReady();
    }

    /**
     * Makes {@link #close()} delete the cluster's directory (configuration, data, logs) once the nodes stopped.
     *
     * @return this cluster
     */
    public LocalCluster deleteOnClose() {
        deleteOnClose = true;
        return this;
    }

    /** Stops every node with SIGTERM (graceful), then forcibly after 20 seconds; deletes the directory if asked. */
    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(onExit);
        } catch (IllegalStateException e) {
            // the JVM is exiting: the hook stops the nodes too, stopping twice is harmless
        }
        stopAll();
        if (deleteOnClose) {
            deleteTree(dir);
        }
    }

    private static void deleteTree(Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            System.err.println("could not delete " + root + ": " + e.getMessage());
        }
    }

    private void stopAll() {
        for (int i : List.copyOf(paused)) {
            try {
                resume(i);
            } catch (IOException e) {
                System.err.println("could not resume " + ids.get(i) + " before stopping it: " + e.getMessage());
            }
        }
        processes.forEach(Process::destroy);
        for (Process p : processes) {
            try {
                if (!p.waitFor(20, TimeUnit.SECONDS)) {
                    p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }
}
