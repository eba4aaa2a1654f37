package org.autodisk.node;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The directory kind a data node's data directory was created under, kept in the file {@code directory} beside the
 * metadata: the kind is chosen when the cluster is created, so a restart configured with the other kind gets a WARN
 * and runs the stored one.
 */
final class StoredDirectoryKind {

    /** The file's name in the data directory. */
    static final String FILE = "directory";

    private static final Logger LOG = LoggerFactory.getLogger(StoredDirectoryKind.class);

    private StoredDirectoryKind() {
    }

    /**
     * Returns the kind a data node runs: the stored one after an earlier start (the data directory holds metadata),
     * else the configured one, which is then stored.
     *
     * @param id         the node
     * @param dataDir    its data directory
     * @param configured {@code cluster.directory}
     * @return the kind to run
     */
    static String effective(String id, Path dataDir, String configured) {
        Path file = dataDir.resolve(FILE);
        try {
            if (Files.isDirectory(dataDir.resolve("meta")) && Files.isRegularFile(file)) {
                String stored = Files.readString(file, StandardCharsets.UTF_8).strip();
                if (!stored.equals(configured)) {
                    LOG.warn("{}: cluster.directory is {} but {} was created under the {} directory; the kind is "
                            + "chosen when the cluster is created, so this node runs {}", id, configured, dataDir,
                            stored, stored);
                }
                return stored;
            }
            if (!Files.isDirectory(dataDir.resolve("meta"))) {
                Files.createDirectories(dataDir);
                Files.writeString(file, configured + "\n", StandardCharsets.UTF_8);
            }
            return configured;
        } catch (IOException e) {
            throw new UncheckedIOException(id + ": cannot read or write " + file, e);
        }
    }
}
