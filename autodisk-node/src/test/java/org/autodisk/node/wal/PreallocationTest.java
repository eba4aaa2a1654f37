package org.autodisk.node.wal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.autodisk.node.wal.Recs.append;
import static org.autodisk.node.wal.Recs.hex;
import static org.autodisk.node.wal.Recs.readAll;
import static org.autodisk.node.wal.Recs.rec;
import static org.autodisk.node.wal.Recs.recs;
import static org.autodisk.node.wal.Recs.segmentFiles;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Segments are extended with zeros ahead of their records; a zero tail is a clean end, anything else is cut. */
class PreallocationTest {

    private static final int FRAME = 4 + rec(1).encodedSize();
    private static final long STEP = 4096;
    private static final SegmentOptions OPTIONS = SegmentOptions.defaults().withSegmentBytes(64 * 1024)
            .withPreallocateBytes(STEP);

    @TempDir
    Path dir;

    private final RecoveryWarnings recoveryWarnings = new RecoveryWarnings();

    @BeforeEach
    void captureLogs() {
        recoveryWarnings.start();
    }

    @AfterEach
    void releaseLogs() {
        recoveryWarnings.stop();
    }

    private LogStore open(Path at, SegmentOptions options) {
        return LogStore.segments(at, "l1", options);
    }

    private List<String> warnings() {
        return recoveryWarnings.messages();
    }

    @Test
    void theActiveSegmentGrowsAStepAheadAndACleanCloseTrimsIt() throws IOException {
        try (LogStore store = open(dir, OPTIONS)) {
            append(store, "d1", recs(1, 3));
            Path file = segmentFiles(dir, "d1").get(0);
            assertThat(Files.size(file)).isEqualTo(STEP);
            append(store, "d1", recs(4, 4 + STEP / FRAME));
            assertThat(Files.size(file)).isEqualTo(2 * STEP);
        }
        assertThat(Files.size(segmentFiles(dir, "d1").get(0))).isEqualTo((4 + STEP / FRAME) * FRAME);
    }

    @Test
    void withoutPreallocationTheFileIsExactlyItsRecords() throws IOException {
        try (LogStore store = open(dir, OPTIONS.withPreallocateBytes(0))) {
            append(store, "d1", recs(1, 3));
            assertThat(Files.size(segmentFiles(dir, "d1").get(0))).isEqualTo(3L * FRAME);
        }
    }

    @Test
    void theImageOfAStoreThatWasNeverClosedRecoversWithoutAWarning() throws IOException {
        Path image = dir.resolve("image");
        try (LogStore store = open(dir.resolve("live"), OPTIONS)) {
            append(store, "d1", recs(1, 10));
            Path file = segmentFiles(dir.resolve("live"), "d1").get(0);
            Files.createDirectories(image.resolve("d1"));
            Files.copy(file, image.resolve("d1").resolve(file.getFileName()));
        }
        assertThat(Files.size(segmentFiles(image, "d1").get(0))).isEqualTo(STEP);
        try (LogStore store = open(image, OPTIONS)) {
            assertThat(hex(readAll(store, "d1"))).isEqualTo(hex(recs(1, 10)));
            assertThat(warnings()).isEmpty();
            assertThat(Files.size(segmentFiles(image, "d1").get(0))).isEqualTo(10L * FRAME);
            assertThat(append(store, "d1", List.of(rec(11, "next")))).isEqualTo(11);
        }
        try (LogStore store = open(image, OPTIONS)) {
            assertThat(store.lastLsn("d1")).isEqualTo(11);
        }
    }

    @Test
    void aZeroTailInAnEarlierSegmentKeepsTheLaterOnes() throws IOException {
        SegmentOptions small = OPTIONS.withSegmentBytes(1024);
        long perSegment = 1024 / FRAME;
        try (LogStore store = open(dir, small)) {
            for (long lsn = 1; lsn <= 2 * perSegment + 3; lsn++) {
                append(store, "d1", List.of(rec(lsn)));
            }
        }
        List<Path> files = segmentFiles(dir, "d1");
        appendBytes(files.get(0), new byte[700]);
        try (LogStore store = open(dir, small)) {
            assertThat(hex(readAll(store, "d1"))).isEqualTo(hex(recs(1, 2 * perSegment + 3)));
            assertThat(segmentFiles(dir, "d1")).isEqualTo(files);
            assertThat(warnings()).isEmpty();
        }
    }

    @Test
    void anythingButZerosAfterTheLastRecordIsATornWriteAndIsCut() throws IOException {
        try (LogStore store = open(dir, OPTIONS)) {
            append(store, "d1", recs(1, 10));
        }
        Path file = segmentFiles(dir, "d1").get(0);
        byte[] tail = new byte[300];
        tail[250] = 7;
        appendBytes(file, tail);
        try (LogStore store = open(dir, OPTIONS)) {
            assertThat(store.lastLsn("d1")).isEqualTo(10);
            assertThat(warnings()).singleElement().asString().contains("cut " + file, "300 bytes dropped");
            assertThat(Files.size(file)).isEqualTo(10L * FRAME);
        }
    }

    private static void appendBytes(Path file, byte[] bytes) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            ch.write(ByteBuffer.wrap(bytes));
        }
    }
}
