package org.autodisk.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.autodisk.cli.LocalCluster;

/**
 * {@link BenchNodes} as separate node processes on 127.0.0.1 ({@link LocalCluster}): cluster {@code i} of a run
 * listens on basePort + 10 i and up, and keeps its files in {@code workDir/LABEL}.
 */
final class LocalBenchNodes implements BenchNodes {

    private final Path workDir;
    private final int basePort;
    private final boolean keepFiles;
    private int started;

    LocalBenchNodes(Path workDir, int basePort, boolean keepFiles) {
        this.workDir = workDir;
        this.basePort = basePort;
        this.keepFiles = keepFiles;
    }

    @Override
    public String kind() {
        return "local processes";
    }

    @Override
    public String description() {
        return "Every node is a separate JVM process on 127.0.0.1 (-Xmx512m, ParallelGC)";
    }

    @Override
    public Nodes start(String label, int dataNodes, int logNodes, int multiplicity, String yaml)
            throws IOException {
        int port = basePort + 10 * started++;
        LocalCluster c = LocalCluster.start(workDir.resolve(label), dataNodes, logNodes, port, List.of(),
                "wal.multiplicity: " + multiplicity + "\n" + yaml);
        return new Nodes() {
            @Override
            public String entryAddress() {
                return c.addresses().get(0);
            }

            @Override
            public void close() {
                c.close();
                if (!keepFiles) {
                    deleteQuietly(c.dir());
                }
            }
        };
    }

    /** A cluster still starting is not handed out yet: its nodes are this process's children. */
    @Override
    public void abort() {
        List<ProcessHandle> children = ProcessHandle.current().children().toList();
        children.forEach(ProcessHandle::destroy);
        for (ProcessHandle p : children) {
            try {
                p.onExit().get(20, TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException e) {
                p.destroyForcibly();
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Deletes a directory tree, warning on stderr when that fails.
     *
     * @param dir the directory; nothing happens if it does not exist
     */
    static void deleteQuietly(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            System.err.println("warning: could not delete " + dir + ": " + e.getMessage());
        }
    }
}
