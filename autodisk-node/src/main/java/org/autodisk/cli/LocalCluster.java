package org.autodisk.cli;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.client.AutoDiskException;

/**
 * A cluster of separate node processes on 127.0.0.1: writes one YAML file per node, starts each node with
 * this JVM's java and class path, waits until every node answers, and stops them all gracefully.
 */
public final class LocalCluster implements AutoCloseable {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final String SECRET_FILE = "cluster.secret";

    private final Path dir;
    private final List<String> ids = new ArrayList<>();
    private final List<String> addresses = new ArrayList<>();
    private final List<Process> processes = new ArrayList<>();

    private final List<String> splitPoints;
    private final int dataNodes;

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
     * @param extraYaml  extra top-level configuration lines for every node (may be empty)
     * @return the running cluster
     * @throws IOException if a file cannot be written or a process not started
     */
    public static LocalCluster start(Path dir, int dataNodes, int logNodes, int basePort, List<String> splitPoints,
            String extraYaml) throws IOException {
        if (dataNodes < 1) {
            throw new IllegalArgumentException("--data-nodes must be at least 1");
        }
        LocalCluster c = new LocalCluster(dir.toAbsolutePath(), splitPoints, dataNodes);
        for (int i = 1; i <= dataNodes + logNodes; i++) {
            c.ids.add(i <= dataNodes ? "d" + i : "l" + (i - dataNodes));
            c.addresses.add("127.0.0.1:" + (basePort + i - 1));
        }
        Files.createDirectories(c.dir);
        c.ensureSecret();
        try {
            for (int i = 0; i < c.ids.size(); i++) {
                c.processes.add(c.launch(i, dataNodes, extraYaml));
            }
            c.awaitReady();
        } catch (IOException | RuntimeException e) {
            c.close();
            throw e;
        }
        return c;
    }

    /** The nodes prove membership with a secret of this cluster's own, generated once and kept with its files. */
    private void ensureSecret() throws IOException {
        Path secret = dir.resolve(SECRET_FILE);
        if (!Files.exists(secret)) {
            byte[] random = new byte[32];
            new java.security.SecureRandom().nextBytes(random);
            Files.writeString(secret, java.util.HexFormat.of().formatHex(random) + "\n");
            try {
                Files.setPosixFilePermissions(secret, java.nio.file.attribute.PosixFilePermissions.fromString(
                        "rw-------"));
            } catch (UnsupportedOperationException e) {
                // not a POSIX file system: the file keeps the default permissions
            }
        }
    }

    private Process launch(int i, int dataNodes, String extraYaml) throws IOException {
        Path config = dir.resolve(ids.get(i) + ".yaml");
        Files.writeString(config, yaml(i, dataNodes, extraYaml));
        return launch(i);
    }

    private Process launch(int i) throws IOException {
        Path config = dir.resolve(ids.get(i) + ".yaml");
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse("java"));
        cmd.addAll(jvmFlags());
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName(), "node", "--config",
                config.toString()));
        Path log = dir.resolve(ids.get(i) + ".log");
        return new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    }

    private static List<String> jvmFlags() {
        List<String> flags = new ArrayList<>(List.of("-Xmx512m", "-XX:+UseParallelGC"));
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (arg.startsWith("--enable-native-access") || arg.startsWith("--sun-misc-unsafe-memory-access")
                    || arg.startsWith("-Dautodisk.")) {
                flags.add(arg);
            }
        }
        return flags;
    }

    private String yaml(int i, int dataNodes, String extraYaml) {
        StringBuilder y = new StringBuilder();
        y.append("node:\n  id: ").append(ids.get(i)).append("\n  data-dir: ").append(quote(dir.resolve("data")))
                .append("\ncluster:\n  secret-file: ").append(quote(dir.resolve(SECRET_FILE))).append("\n  nodes:\n");
        for (int j = 0; j < ids.size(); j++) {
            y.append("    - {id: ").append(ids.get(j)).append(", role: ").append(j < dataNodes ? "data" : "log")
                    .append(", address: \"").append(addresses.get(j)).append("\"}\n");
        }
        if (!splitPoints.isEmpty()) {
            y.append("  split-points: [").append(splitPoints.stream().map(p -> "\"" + p + "\"")
                    .collect(Collectors.joining(", "))).append("]\n");
        }
        return y.append(extraYaml).toString();
    }

    private static String quote(Path p) {
        return "\"" + p.toString().replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private void awaitReady() throws IOException {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        for (int i = 0; i < ids.size(); i++) {
            while (!answers(addresses.get(i))) {
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
        processes.get(i).destroyForcibly().waitFor();
    }

    /**
     * Starts node {@code i} again on its configuration and data and waits until it answers.
     *
     * @param i node index
     * @throws IOException if it cannot be started or does not answer
     */
    public void restart(int i) throws IOException {
        processes.set(i, launch(i));
        awaitReady();
    }

    /** Stops every node with SIGTERM (graceful), then forcibly after 20 seconds. */
    @Override
    public void close() {
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
