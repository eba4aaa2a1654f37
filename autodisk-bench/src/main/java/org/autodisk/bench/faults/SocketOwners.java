package org.autodisk.bench.faults;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Which node of a local cluster opened a loopback connection, read from Linux's {@code /proc}: the connection's
 * socket inode from {@code /proc/net/tcp} and {@code tcp6}, the process holding it from {@code /proc/<pid>/fd}, and
 * the node that process runs from its command line ({@code --config <cluster dir>/<id>.yaml}). Every connection
 * between two local processes comes from 127.0.0.1, so this is the only way a proxy in front of a node can tell one
 * peer from another.
 */
final class SocketOwners {

    private static final Path PROC = Path.of("/proc");

    private final Path clusterDir;
    private final List<String> ids;

    /**
     * Finds the nodes of one cluster.
     *
     * @param clusterDir the cluster's directory, where each node's {@code <id>.yaml} lies
     * @param ids        the node ids
     */
    SocketOwners(Path clusterDir, List<String> ids) {
        this.clusterDir = clusterDir.toAbsolutePath();
        this.ids = List.copyOf(ids);
    }

    /**
     * Says whether this machine shows its sockets' owners ({@code /proc/net/tcp}: Linux).
     *
     * @return true if it does
     */
    static boolean available() {
        return Files.isReadable(PROC.resolve("net/tcp")) && Files.isDirectory(PROC.resolve("self/fd"));
    }

    /**
     * Finds the node that opened a connection to this process.
     *
     * @param port     the connection's port at its opener (the accepted socket's remote port)
     * @param peerPort the port it was opened to (the accepted socket's local port)
     * @return the node's id; empty if no node of the cluster holds it (a client, or a socket already closed)
     */
    Optional<String> node(int port, int peerPort) {
        Map<Long, String> nodes = nodeProcesses();
        OptionalLong pid = pidOf(port, peerPort, nodes.keySet());
        return pid.isPresent() ? Optional.of(nodes.get(pid.getAsLong())) : Optional.empty();
    }

    /**
     * Finds which of some processes holds the socket of a loopback connection.
     *
     * @param port       the socket's own port
     * @param peerPort   the port at its other end
     * @param candidates the processes to look into
     * @return the process id; empty if none of them holds it
     */
    static OptionalLong pidOf(int port, int peerPort, Iterable<Long> candidates) {
        long inode = inode(port, peerPort);
        if (inode <= 0) {
            return OptionalLong.empty();
        }
        String link = "socket:[" + inode + "]";
        for (long pid : candidates) {
            if (holds(pid, link)) {
                return OptionalLong.of(pid);
            }
        }
        return OptionalLong.empty();
    }

    /** The inode of the socket on {@code port} connected to {@code peerPort}, or 0 if none is listed. */
    static long inode(int port, int peerPort) {
        for (String table : List.of("net/tcp", "net/tcp6")) {
            try {
                for (String line : Files.readAllLines(PROC.resolve(table))) {
                    String[] f = line.trim().split("\\s+");
                    if (f.length > 9 && f[1].endsWith(":" + hexPort(port)) && f[2].endsWith(":" + hexPort(peerPort))) {
                        return Long.parseLong(f[9]);
                    }
                }
            } catch (IOException | NumberFormatException e) {
                // a table this kernel does not have, or a line being rewritten: look on
            }
        }
        return 0;
    }

    private static String hexPort(int port) {
        return String.format("%04X", port);
    }

    private static boolean holds(long pid, String link) {
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(PROC.resolve(pid + "/fd"))) {
            for (Path fd : fds) {
                try {
                    if (link.equals(Files.readSymbolicLink(fd).toString())) {
                        return true;
                    }
                } catch (IOException e) {
                    // closed while we looked
                }
            }
        } catch (IOException | RuntimeException e) {
            // the process is gone (a directory that vanishes while listed throws DirectoryIteratorException)
        }
        return false;
    }

    /** The processes running a node of this cluster, by their command lines. */
    private Map<Long, String> nodeProcesses() {
        Map<Long, String> out = new LinkedHashMap<>();
        try (DirectoryStream<Path> procs = Files.newDirectoryStream(PROC, p -> p.getFileName().toString()
                .chars().allMatch(Character::isDigit))) {
            for (Path p : procs) {
                nodeOf(p).ifPresent(id -> out.put(Long.parseLong(p.getFileName().toString()), id));
            }
        } catch (IOException | RuntimeException e) {
            // /proc unreadable, or a process gone while listed: no node is known, so nothing can be cut
        }
        return out;
    }

    private Optional<String> nodeOf(Path proc) {
        try {
            String cmd = new String(Files.readAllBytes(proc.resolve("cmdline")), StandardCharsets.UTF_8);
            if (!cmd.contains(clusterDir.toString())) {
                return Optional.empty();
            }
            return ids.stream().filter(id -> cmd.contains("\0" + clusterDir.resolve(id + ".yaml") + "\0")
                    || cmd.endsWith("\0" + clusterDir.resolve(id + ".yaml"))).findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
