package org.autodisk.node.store;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The space of the disk (file system) a node's data directory is on, as the balancer sees it.
 *
 * @param freeBytes  bytes this process may still write
 * @param totalBytes the file system's size
 */
public record DiskSpace(long freeBytes, long totalBytes) {

    /**
     * Measures the file system of a directory.
     *
     * @param dir the directory (or a parent that exists)
     * @return its space, or {@code null} if it cannot be measured
     */
    public static DiskSpace of(Path dir) {
        try {
            Path p = dir.toAbsolutePath();
            while (p != null && !Files.exists(p)) {
                p = p.getParent();
            }
            if (p == null) {
                return null;
            }
            FileStore fs = Files.getFileStore(p);
            return new DiskSpace(fs.getUsableSpace(), fs.getTotalSpace());
        } catch (IOException | SecurityException e) {
            return null;
        }
    }
}
