package org.autodisk.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Redis Cluster of local {@code redis-server} processes on loopback (masters only, append-only file with an fsync
 * per write: {@code appendfsync always}), for {@code bench compare}; measured with {@code redis-benchmark}.
 */
final class RedisCluster implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

    private final Path bin;
    private final List<Integer> ports;
    private final List<Process> servers = new ArrayList<>();

    private RedisCluster(Path bin, List<Integer> ports) {
        this.bin = bin;
        this.ports = ports;
    }

    /**
     * Starts the masters, joins them into one cluster and waits until it serves every slot.
     *
     * @param bin      the folder of redis-server, redis-cli and redis-benchmark
     * @param dir      where each server keeps its files
     * @param basePort the first server's port (the others follow; each also uses its port + 10000)
     * @param masters  how many masters
     * @return the running cluster
     * @throws IOException if a server does not start or the cluster does not form in time
     */
    static RedisCluster start(Path bin, Path dir, int basePort, int masters) throws IOException {
        List<Integer> ports = new ArrayList<>();
        for (int i = 0; i < masters; i++) {
            ports.add(basePort + i);
        }
        RedisCluster c = new RedisCluster(bin, ports);
        try {
            for (int port : ports) {
                c.servers.add(c.startServer(dir.resolve("redis-" + port), port));
            }
            for (int port : ports) {
                c.await(port, "ping", "PONG");
            }
            List<String> create = new ArrayList<>(List.of("--cluster", "create"));
            ports.forEach(p -> create.add("127.0.0.1:" + p));
            create.addAll(List.of("--cluster-replicas", "0", "--cluster-yes"));
            c.cli(ports.get(0), create);
            for (int port : ports) {
                c.await(port, "cluster info", "cluster_state:ok");
            }
            return c;
        } catch (IOException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    /**
     * Runs {@code redis-benchmark} in cluster mode: SETs of random keys.
     *
     * @param clients    connections, each with one request in flight
     * @param n          requests
     * @param valueBytes the value size
     * @return what it measured
     * @throws IOException if it fails
     */
    Result benchmark(int clients, int n, int valueBytes) throws IOException {
        String out = run(List.of(bin.resolve("redis-benchmark").toString(), "-h", "127.0.0.1", "-p",
                String.valueOf(ports.get(0)), "--cluster", "-t", "set", "-d", String.valueOf(valueBytes), "-n",
                String.valueOf(n), "-c", String.valueOf(clients), "-r", "100000000", "--csv"), Duration.ofMinutes(30));
        return Result.parseCsv(out);
    }

    /**
     * Returns the server's version line.
     *
     * @return e.g. {@code Redis server v=7.0.15 ...}
     * @throws IOException if it cannot be run
     */
    String version() throws IOException {
        return run(List.of(bin.resolve("redis-server").toString(), "--version"), Duration.ofSeconds(10)).strip();
    }

    @Override
    public void close() {
        for (Process p : servers) {
            p.destroy();
        }
        for (Process p : servers) {
            try {
                if (!p.waitFor(10, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }

    private Process startServer(Path dir, int port) throws IOException {
        Files.createDirectories(dir);
        List<String> cmd = List.of(bin.resolve("redis-server").toString(), "--port", String.valueOf(port), "--bind",
                "127.0.0.1", "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf", "--appendonly", "yes",
                "--appendfsync", "always", "--save", "", "--dir", dir.toString(), "--logfile", "redis.log");
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("stdout.log").toFile())
                .start();
    }

    private void await(int port, String command, String expected) throws IOException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            try {
                last = cli(port, List.of(command.split(" ")));
                if (last.contains(expected)) {
                    return;
                }
            } catch (IOException e) {
                last = e.getMessage();
            }
            sleep();
        }
        throw new IOException("redis on port " + port + " did not answer '" + command + "' with " + expected
                + " within " + START_TIMEOUT.toSeconds() + " s; last answer: " + last.strip());
    }

    private String cli(int port, List<String> args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(bin.resolve("redis-cli").toString(), "-h", "127.0.0.1", "-p",
                String.valueOf(port)));
        cmd.addAll(args);
        return run(cmd, Duration.ofSeconds(30));
    }

    private static String run(List<String> cmd, Duration timeout) throws IOException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try {
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", cmd) + " took more than " + timeout.toSeconds() + " s");
            }
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                throw new IOException(String.join(" ", cmd) + " exited with " + p.exitValue() + ": " + out.strip());
            }
            return out;
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running " + cmd.get(0), e);
        }
    }

    private static void sleep() throws IOException {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for redis", e);
        }
    }

    /**
     * One {@code redis-benchmark} test.
     *
     * @param rps       requests per second
     * @param p50Micros median latency
     * @param p99Micros 99th percentile latency
     */
    record Result(double rps, double p50Micros, double p99Micros) {

        /**
         * Reads the SET line of {@code redis-benchmark --csv} output, by the names of its header.
         *
         * @param csv the output
         * @return the result
         * @throws IOException if the output has no header or no SET line, or a number is unreadable
         */
        static Result parseCsv(String csv) throws IOException {
            List<String> header = null;
            for (String line : csv.split("\\R")) {
                List<String> cells = cells(line);
                if (cells.contains("test") && cells.contains("rps")) {
                    header = cells;
                } else if (header != null && !cells.isEmpty() && cells.get(0).equals("SET")) {
                    return new Result(number(header, cells, "rps"), number(header, cells, "p50_latency_ms") * 1000,
                            number(header, cells, "p99_latency_ms") * 1000);
                }
            }
            throw new IOException("redis-benchmark printed no CSV header and SET line: " + csv.strip());
        }

        private static List<String> cells(String line) {
            List<String> cells = new ArrayList<>();
            for (String c : line.strip().split(",")) {
                cells.add(c.replace("\"", "").strip());
            }
            return cells;
        }

        private static double number(List<String> header, List<String> cells, String column) throws IOException {
            int i = header.indexOf(column);
            if (i < 0 || i >= cells.size()) {
                throw new IOException("redis-benchmark's CSV has no column " + column + ": " + header);
            }
            try {
                return Double.parseDouble(cells.get(i));
            } catch (NumberFormatException e) {
                throw new IOException("redis-benchmark's " + column + " is not a number: " + cells.get(i), e);
            }
        }
    }
}
