package org.autodisk.node.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.autodisk.node.store.DiskSpace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file-driven fault hook of the journal: a {@code disk-full} file fails writes, a {@code slow-fsync} file delays
 * fsyncs by the milliseconds it holds (none for text that is not a number), each taken up only when the files are
 * looked at again, and gone with the file.
 */
class FaultFilesTest {

    @TempDir
    Path dir;

    private final AtomicLong clock = new AtomicLong(1_000_000_000L);

    private void later() {
        clock.addAndGet(FaultFiles.REFRESH_NANOS);
    }

    @Test
    void aDiskFullFileFailsWritesUntilItIsRemoved() throws IOException {
        FaultFiles hook = new FaultFiles("l1", dir, clock::get);
        assertThatCode(() -> hook.beforeWrite("journal")).doesNotThrowAnyException();
        Files.writeString(dir.resolve("disk-full"), "");
        assertThatCode(() -> hook.beforeWrite("journal")).as("not looked at again yet").doesNotThrowAnyException();
        later();
        assertThatThrownBy(() -> hook.beforeWrite("journal")).isInstanceOf(IOException.class)
                .hasMessageContaining("No space left on device").hasMessageContaining("disk-full");
        assertThat(hook.diskFull()).isTrue();
        Files.delete(dir.resolve("disk-full"));
        later();
        assertThatCode(() -> hook.beforeWrite("journal")).doesNotThrowAnyException();
    }

    @Test
    void aDiskUsedPercentFileMakesTheDiskReportThatFull() throws IOException {
        FaultFiles hook = new FaultFiles("d1", dir, clock::get);
        DiskSpace measured = new DiskSpace(600, 1000);
        assertThat(hook.disk(measured)).isSameAs(measured);
        Files.writeString(dir.resolve("disk-used-percent"), "97.5\n");
        later();
        assertThat(hook.disk(measured)).isEqualTo(new DiskSpace(25, 1000));
        assertThat(hook.disk(null)).as("not measurable stays so").isNull();
        Files.writeString(dir.resolve("disk-used-percent"), "lots");
        later();
        assertThat(hook.disk(measured)).as("not a percentage: as measured").isSameAs(measured);
        Files.delete(dir.resolve("disk-used-percent"));
        later();
        assertThat(hook.disk(measured)).isSameAs(measured);
    }

    @Test
    void aSlowFsyncFileDelaysFsyncsByWhatItHolds() throws IOException {
        FaultFiles hook = new FaultFiles("l1", dir, clock::get);
        assertThat(hook.fsyncDelayMs()).isZero();
        Files.writeString(dir.resolve("slow-fsync"), "250\n");
        later();
        assertThat(hook.fsyncDelayMs()).isEqualTo(250);
        Files.writeString(dir.resolve("slow-fsync"), "a while");
        later();
        assertThat(hook.fsyncDelayMs()).as("not a number: no delay").isZero();
        Files.writeString(dir.resolve("slow-fsync"), "999999999");
        later();
        assertThat(hook.fsyncDelayMs()).isEqualTo(FaultFiles.MAX_DELAY_MS);
        Files.delete(dir.resolve("slow-fsync"));
        later();
        assertThat(hook.fsyncDelayMs()).isZero();
    }
}
