package org.autodisk.bench.faults;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A file system of its own for every node of a local cluster — a tmpfs mounted on its data directory, which outlives
 * a killed process as a disk does — so that a node's disk can be filled for real: a ballast file takes every free byte
 * and the writes of RocksDB or of the journal fail with {@code ENOSPC}, from the kernel, until the ballast is deleted.
 * Mounting needs root (and Linux).
 */
final class NodeDisks implements AutoCloseable {

    /** Each node's file system: room for a fault run's data many times over. */
    static final String SIZE = "512m";
    /** The file that fills a node's disk. */
    static final String BALLAST = "ballast";

    private final Path dataDir;
    private final List<Path> mounted = new ArrayList<>();

    private NodeDisks(Path dataDir) {
        this.dataDir = dataDir;
    }

    /**
     * Mounts a file system on the data directory of every node.
     *
     * @param dataDir the cluster's {@code node.data-dir} (each node's directory is {@code <dataDir>/<id>})
     * @param ids     the nodes
     * @param size    each one's size, as {@code mount -o size=} takes it ({@link #SIZE} for a fault run)
     * @return the mounted file systems
     * @throws IllegalArgumentException if they cannot be mounted (not root, no tmpfs), saying so
     * @throws IOException if a directory cannot be made
     */
    static NodeDisks mount(Path dataDir, List<String> ids, String size) throws IOException {
        NodeDisks disks = new NodeDisks(dataDir);
        try {
            for (String id : ids) {
                Path dir = Files.createDirectories(dataDir.resolve(id));
                String out = run("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", dir.toString());
                if (out != null) {
                    throw new IllegalArgumentException("the fs-full faults give every node a file system of its own "
                            + "(a tmpfs on its data directory), which needs root: mount " + dir + " failed: " + out);
                }
                disks.mounted.add(dir);
            }
        } catch (IOException | RuntimeException e) {
            disks.close();
            throw e;
        }
        return disks;
    }

    /**
     * Fills a node's file system to its last page.
     *
     * @param id the node
     * @return the bytes the ballast took
     * @throws IOException if the ballast cannot be written for another reason than a full disk
     */
    long fill(String id) throws IOException {
        Path ballast = dataDir.resolve(id).resolve(BALLAST);
        long written = 0;
        try (FileChannel ch = FileChannel.open(ballast, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
            for (int chunk : new int[] {1 << 20, 4096}) {
                written += writeUntilFull(ch, chunk, ballast);
            }
        }
        return written;
    }

    private static long writeUntilFull(FileChannel ch, int chunk, Path ballast) throws IOException {
        ByteBuffer zeros = ByteBuffer.allocate(chunk);
        long written = 0;
        while (true) {
            zeros.clear();
            try {
                written += ch.write(zeros);
            } catch (IOException e) {
                if (Files.getFileStore(ballast).getUsableSpace() < chunk) {
                    return written;
                }
                throw e;
            }
        }
    }

    /**
     * Frees a node's file system: deletes the ballast.
     *
     * @param id the node
     * @throws IOException if it cannot be deleted
     */
    void free(String id) throws IOException {
        Files.deleteIfExists(dataDir.resolve(id).resolve(BALLAST));
    }

    /** Unmounts every file system (what the nodes wrote there goes with it; their logs are elsewhere). */
    @Override
    public void close() {
        for (Path dir : mounted) {
            try {
                String out = run("umount", "-l", dir.toString());
                if (out != null) {
                    System.err.println("faults: could not unmount " + dir + ": " + out);
                }
            } catch (IOException e) {
                System.err.println("faults: could not unmount " + dir + ": " + e.getMessage());
            }
        }
        mounted.clear();
    }

    /** Runs a command; returns null if it succeeded, else what it said. */
    private static String run(String... command) throws IOException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return String.join(" ", command) + " did not finish";
            }
            return p.exitValue() == 0 ? null : out.isEmpty() ? "exit code " + p.exitValue() : out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running " + command[0], e);
        }
    }
}
