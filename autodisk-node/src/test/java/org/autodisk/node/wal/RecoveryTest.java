package org.autodisk.node.wal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.autodisk.node.wal.Recs.append;
import static org.autodisk.node.wal.Recs.hex;
import static org.autodisk.node.wal.Recs.lsns;
import static org.autodisk.node.wal.Recs.range;
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

/** Recovery on open: torn tails and corrupt records are cut, logged, and never served. */
class RecoveryTest {

    private static final SegmentOptions SMALL = SegmentOptions.defaults().withSegmentBytes(1024);
    private static final int FRAME = 4 + rec(1).encodedSize();
    private static final int PER_SEGMENT = 1024 / FRAME;

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

    private LogStore open() {
        return LogStore.segments(dir, "l1", SMALL);
    }

    private void write(long from, long to) {
        try (LogStore store = open()) {
            for (long lsn = from; lsn <= to; lsn++) {
                append(store, "d1", List.of(rec(lsn)));
            }
        }
    }

    private List<String> warnings() {
        return recoveryWarnings.messages();
    }

    @Test
    void aTornTailIsCutAndAppendsContinueAtTheRightLsn() throws IOException {
        write(1, 10);
        Path file = segmentFiles(dir, "d1").get(0);
        truncate(file, 10L * FRAME - 5);
        try (LogStore store = open()) {
            assertThat(store.lastLsn("d1")).isEqualTo(9);
            assertThat(hex(readAll(store, "d1"))).isEqualTo(hex(recs(1, 9)));
            assertThat(Files.size(file)).isEqualTo(9L * FRAME);
            assertThat(warnings()).singleElement().asString().startsWith("l1: stream d1: cut " + file)
                    .contains("offset " + 9 * FRAME, (FRAME - 5) + " bytes dropped");
            assertThat(append(store, "d1", List.of(rec(10, "new")))).isEqualTo(10);
        }
        try (LogStore store = open()) {
            assertThat(hex(store.read("d1", 9, 10, Long.MAX_VALUE))).isEqualTo(hex(List.of(rec(9), rec(10, "new"))));
        }
    }

    @Test
    void anIncompleteLengthPrefixIsCut() throws IOException {
        write(1, 5);
        Path file = segmentFiles(dir, "d1").get(0);
        truncate(file, 4L * FRAME);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            ch.write(ByteBuffer.wrap(new byte[] {0, 1, 0x7f}));
        }
        try (LogStore store = open()) {
            assertThat(lsns(readAll(store, "d1"))).isEqualTo(range(1, 4));
            assertThat(warnings()).singleElement().asString().contains("incomplete length prefix");
        }
    }

    @Test
    void aFlippedByteInTheLastSegmentCutsFromThatRecordOn() throws IOException {
        write(1, 2 * PER_SEGMENT + 9);
        List<Path> files = segmentFiles(dir, "d1");
        assertThat(files).hasSize(3);
        Path last = files.get(2);
        long bad = 2L * PER_SEGMENT + 5;
        long offset = 4L * FRAME;
        flip(last, offset + FRAME - 8);
        try (LogStore store = open()) {
            assertThat(store.lastLsn("d1")).isEqualTo(bad - 1);
            assertThat(hex(readAll(store, "d1"))).isEqualTo(hex(recs(1, bad - 1)));
            assertThat(store.read("d1", bad, 10, Long.MAX_VALUE)).isEmpty();
            assertThat(Files.size(last)).isEqualTo(offset);
            assertThat(warnings()).singleElement().asString().contains("cut " + last, "offset " + offset,
                    (5L * FRAME) + " bytes dropped", "CRC32C mismatch");
            assertThat(append(store, "d1", List.of(rec(bad, "again")))).isEqualTo(bad);
            assertThat(hex(store.read("d1", bad, 10, Long.MAX_VALUE))).isEqualTo(hex(List.of(rec(bad, "again"))));
        }
    }

    @Test
    void corruptionInAnEarlierSegmentDeletesTheLaterOnes() throws IOException {
        write(1, 2 * PER_SEGMENT + 3);
        List<Path> files = segmentFiles(dir, "d1");
        flip(files.get(0), 3L * FRAME + 20);
        try (LogStore store = open()) {
            assertThat(lsns(readAll(store, "d1"))).isEqualTo(range(1, 3));
            assertThat(segmentFiles(dir, "d1")).containsExactly(files.get(0));
            assertThat(warnings()).hasSize(3);
            assertThat(warnings().get(1)).contains("deleted " + files.get(1));
            assertThat(warnings().get(2)).contains("deleted " + files.get(2));
            assertThat(append(store, "d1", recs(4, 6))).isEqualTo(6);
        }
    }

    @Test
    void aCorruptLengthIsCut() throws IOException {
        write(1, 6);
        Path file = segmentFiles(dir, "d1").get(0);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.allocate(4).putInt(0, 0x7fff0000), 2L * FRAME);
        }
        try (LogStore store = open()) {
            assertThat(lsns(readAll(store, "d1"))).isEqualTo(range(1, 2));
            assertThat(warnings()).singleElement().asString().contains("record length " + 0x7fff0000);
        }
    }

    @Test
    void aSegmentWhoseFirstRecordDoesNotMatchItsNameIsCut() throws IOException {
        write(1, PER_SEGMENT + 2);
        List<Path> files = segmentFiles(dir, "d1");
        Files.move(files.get(1), files.get(1).resolveSibling(Segment.fileName(PER_SEGMENT + 1000)));
        try (LogStore store = open()) {
            assertThat(lsns(readAll(store, "d1"))).isEqualTo(range(1, PER_SEGMENT));
            assertThat(warnings()).singleElement().asString().contains("named for LSN " + (PER_SEGMENT + 1000));
            assertThat(segmentFiles(dir, "d1")).containsExactly(files.get(0));
        }
    }

    @Test
    void emptySegmentFilesAreDeletedWithoutAWarning() throws IOException {
        write(1, 3);
        Path empty = Files.createFile(dir.resolve("d1").resolve(Segment.fileName(50)));
        try (LogStore store = open()) {
            assertThat(Files.exists(empty)).isFalse();
            assertThat(store.lastLsn("d1")).isEqualTo(3);
            assertThat(append(store, "d1", List.of(rec(4)))).isEqualTo(4);
            assertThat(warnings()).isEmpty();
        }
    }

    @Test
    void aStreamWhoseOnlyRecordIsTornIsGone() throws IOException {
        write(1, 1);
        truncate(segmentFiles(dir, "d1").get(0), FRAME - 1);
        try (LogStore store = open()) {
            assertThat(store.streams()).isEmpty();
            assertThat(store.lastLsn("d1")).isZero();
            assertThat(append(store, "d1", List.of(rec(1)))).isEqualTo(1);
        }
    }

    private static void truncate(Path file, long size) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.truncate(size);
        }
    }

    private static void flip(Path file, long offset) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.allocate(1);
            ch.read(b, offset);
            b.put(0, (byte) (b.get(0) ^ 0x10));
            ch.write(b.rewind(), offset);
        }
    }
}
