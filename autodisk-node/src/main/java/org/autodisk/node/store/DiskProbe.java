package org.autodisk.node.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The check that a disk takes writes again after an error (a full disk that was freed, a device back): a probe file is
 * written, fsynced and removed. A log node's journal and a data node's store both ask it before they trust the disk.
 */
public final class DiskProbe {

    private DiskProbe() {
    }

    /** A step of the probe that may fail it as a real write or fsync would (a fault hook). */
    @FunctionalInterface
    public interface Step {

        /** The step that does nothing. */
        Step NONE = () -> { };

        /**
         * Runs the step.
         *
         * @throws IOException to fail the probe
         */
        void run() throws IOException;
    }

    /**
     * Writes {@code bytes} zero bytes to {@code file}, fsyncs it and removes it.
     *
     * @param file        the probe file, beside what the disk holds (replaced if it is there)
     * @param bytes       how much to write: at least what the next real write takes
     * @param beforeWrite run before the write
     * @param beforeSync  run before the fsync
     * @throws IOException if the write, the fsync, a step or the removal failed: the disk is not trusted yet
     */
    public static void write(Path file, int bytes, Step beforeWrite, Step beforeSync) throws IOException {
        try {
            beforeWrite.run();
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer zeros = ByteBuffer.allocate(bytes);
                while (zeros.hasRemaining()) {
                    ch.write(zeros);
                }
                beforeSync.run();
                ch.force(true);
            }
        } catch (IOException | RuntimeException e) { // an unchecked failure (a closed channel) removes it too
            removeAfter(file, e);
            throw e;
        }
        Files.deleteIfExists(file);
    }

    private static void removeAfter(Path file, Exception failure) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            failure.addSuppressed(e);
        }
    }
}
