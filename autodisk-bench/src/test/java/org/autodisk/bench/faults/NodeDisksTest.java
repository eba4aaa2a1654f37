package org.autodisk.bench.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node's own file system, filled for real: a write fails with {@code ENOSPC} while the ballast is there and passes
 * once it is freed; another node's file system is not touched; closing unmounts. Needs root (skipped otherwise).
 */
class NodeDisksTest {

    @TempDir
    Path dir;

    private NodeDisks mounted() throws IOException {
        assumeThat("0".equals(uid())).as("root (mount)").isTrue();
        return NodeDisks.mount(dir, List.of("d1", "d2"), "16m");
    }

    private static String uid() throws IOException {
        Process p = new ProcessBuilder("id", "-u").start();
        return new String(p.getInputStream().readAllBytes()).trim();
    }

    @Test
    void aFilledFileSystemFailsWritesUntilFreedAndOnlyThatNodes() throws IOException {
        try (NodeDisks disks = mounted()) {
            assertThat(disks.fill("d1")).isPositive();
            assertThatThrownBy(() -> Files.write(dir.resolve("d1").resolve("data"), new byte[64 * 1024]))
                    .isInstanceOf(IOException.class).hasMessageContaining("No space left");
            Files.write(dir.resolve("d2").resolve("data"), new byte[64 * 1024]);
            disks.free("d1");
            Files.write(dir.resolve("d1").resolve("data"), new byte[64 * 1024]);
        }
        assertThat(dir.resolve("d1").resolve("data")).as("unmounted: what was written went with it").doesNotExist();
    }
}
