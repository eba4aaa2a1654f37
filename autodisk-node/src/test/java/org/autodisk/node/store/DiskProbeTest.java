package org.autodisk.node.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DiskProbeTest {

    @TempDir
    Path dir;

    @Test
    void aProbeThatWorksLeavesNoFile() throws IOException {
        Path probe = dir.resolve("probe");
        Files.writeString(probe, "left by a crashed probe");
        DiskProbe.write(probe, 4096, DiskProbe.Step.NONE, DiskProbe.Step.NONE);
        assertThat(probe).doesNotExist();
    }

    @Test
    void aFailedFsyncFailsTheProbeAndStillRemovesTheFile() {
        Path probe = dir.resolve("probe");
        assertThatThrownBy(() -> DiskProbe.write(probe, 4096, DiskProbe.Step.NONE, () -> {
            assertThat(probe).exists();
            throw new IOException("Input/output error");
        })).isInstanceOf(IOException.class).hasMessage("Input/output error");
        assertThat(probe).doesNotExist();
    }

    @Test
    void aFailedWriteFailsTheProbe() {
        assertThatThrownBy(() -> DiskProbe.write(dir.resolve("probe"), 4096,
                () -> {
                    throw new IOException("No space left on device");
                }, DiskProbe.Step.NONE)).hasMessage("No space left on device");
        assertThatThrownBy(() -> DiskProbe.write(dir.resolve("gone").resolve("probe"), 4096, DiskProbe.Step.NONE,
                DiskProbe.Step.NONE)).isInstanceOf(IOException.class);
    }

    @Test
    void anUncheckedFailureFailsTheProbeAndStillRemovesTheFile() {
        Path probe = dir.resolve("probe");
        assertThatThrownBy(() -> DiskProbe.write(probe, 4096, DiskProbe.Step.NONE, () -> {
            throw new UncheckedIOException(new IOException("channel closed"));
        })).isInstanceOf(UncheckedIOException.class);
        assertThat(probe).doesNotExist();
    }
}
