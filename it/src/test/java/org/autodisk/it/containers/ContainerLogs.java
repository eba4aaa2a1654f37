package org.autodisk.it.containers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Where container output goes when a container stops: {@code it/target/container-logs/NAME.log}. */
public final class ContainerLogs {

    private ContainerLogs() {
    }

    /**
     * The directory of saved container logs.
     *
     * @return {@code it/target/container-logs}, created if missing
     */
    public static Path directory() {
        Path dir = AutoDiskImage.repositoryRoot().resolve("it/target/container-logs");
        try {
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Writes one container's output to a new file; an existing file of the same name is kept and a numbered
     * name used instead ({@code NAME-2.log}, ...), so a restarted node keeps the log of each incarnation.
     *
     * @param name the file name without {@code .log}
     * @param text the output
     * @return the file written
     */
    public static synchronized Path save(String name, String text) {
        Path dir = directory();
        Path file = dir.resolve(name + ".log");
        for (int n = 2; Files.exists(file); n++) {
            file = dir.resolve(name + "-" + n + ".log");
        }
        try {
            return Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
