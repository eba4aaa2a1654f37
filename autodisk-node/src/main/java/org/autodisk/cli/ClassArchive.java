package org.autodisk.cli;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * The class-data-sharing archive a local node process starts from (the JDK's dynamic CDS): the classes a node loaded,
 * written by the JVM when it last stopped cleanly, and mapped at its next start instead of loaded, parsed and
 * verified again, which takes about a third off a node's start-up (a restarted node is back sooner). One archive per
 * node id, in a directory of this user's under the temporary directory, named after this JVM, the class path and its
 * jars' sizes and times, so that every local cluster of one build shares them and nodes that stop together never
 * write the same file; a new build starts without one and writes its own at its first clean stop. None when the
 * class path holds a directory (the JVM archives classes from jars only). {@code -Dautodisk.class-archive=false} turns
 * it off.
 */
final class ClassArchive {

    /** The system property that turns the archive off. */
    static final String SWITCH = "autodisk.class-archive";

    private ClassArchive() {
    }

    /**
     * The JVM flags that make node {@code nodeId} start from its archive and write it at a clean stop if it has none
     * that fits.
     *
     * @param nodeId the node
     * @return the flags, or none if turned off or the cache cannot be made
     */
    static List<String> flags(String nodeId) {
        return flags(nodeId, Path.of(System.getProperty("java.io.tmpdir"), "autodisk-class-archives-"
                + System.getProperty("user.name")), System.getProperty("java.class.path"));
    }

    /**
     * The flags of {@link #flags(String)}, with the archives in a directory of the caller's.
     *
     * @param nodeId    the node
     * @param dir       where the archives are kept
     * @param classPath the class path the node runs with
     * @return the flags, or none if turned off, the class path holds a directory or the directory cannot be made
     */
    static List<String> flags(String nodeId, Path dir, String classPath) {
        if ("false".equals(System.getProperty(SWITCH)) || classPathHasDirectory(classPath)) {
            return List.of();
        }
        try {
            Files.createDirectories(dir);
            owned(dir);
            String name = buildKey(classPath) + "-" + nodeId + ".jsa";
            dropOthers(dir, nodeId, name);
            return List.of("-XX:SharedArchiveFile=" + dir.resolve(name), "-XX:+AutoCreateSharedArchive",
                    "-Xlog:cds=off", "-Xlog:cds+dynamic=off");
        } catch (IOException e) {
            return List.of();
        }
    }

    /** A JVM cannot archive classes loaded from a directory (a test run's {@code target/classes}): no archive then. */
    private static boolean classPathHasDirectory(String classPath) {
        for (String entry : classPath.split(File.pathSeparator)) {
            if (Files.isDirectory(Path.of(entry))) {
                return true;
            }
        }
        return false;
    }

    /** Only this user may put an archive where its nodes take one from. */
    private static void owned(Path dir) throws IOException {
        try {
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system: as it is
        }
    }

    /**
     * Deletes this node's archives of other builds: the JVM refuses an archive whose jars changed and does not write it
     * anew, so each build has its own (a process that still maps one keeps it until it ends).
     */
    private static void dropOthers(Path dir, String nodeId, String keep) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(f -> f.getFileName().toString().endsWith("-" + nodeId + ".jsa")
                    && !f.getFileName().toString().equals(keep)).toList()) {
                Files.deleteIfExists(f);
            }
        }
    }

    /** What an archive depends on: this JVM, the class path, and the size and time of every jar on it. */
    private static String buildKey(String classPath) throws IOException {
        StringBuilder build = new StringBuilder(System.getProperty("java.home") + "|"
                + System.getProperty("java.vm.version"));
        for (String entry : classPath.split(File.pathSeparator)) {
            Path p = Path.of(entry);
            build.append('|').append(entry);
            if (Files.isRegularFile(p)) {
                build.append(':').append(Files.size(p)).append(':').append(Files.getLastModifiedTime(p).toMillis());
            }
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(build.toString()
                    .getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
