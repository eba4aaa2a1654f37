package org.autodisk.node.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.autodisk.node.wire.LogRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JournalLedgerStoreTest extends LedgerStoreContract {

    @TempDir
    Path dir;

    private final AtomicBoolean failSync = new AtomicBoolean();
    private long segmentBytes = 64 * 1024;

    private SegmentOptions options(long segmentBytes) {
        return SegmentOptions.defaults().withSegmentBytes(segmentBytes).withPreallocateBytes(4096)
                .withFaultHook(new SegmentOptions.FaultHook() {
                    @Override
                    public void beforeSync(Path file) throws IOException {
                        if (failSync.get()) {
                            throw new IOException("injected fsync failure");
                        }
                    }
                });
    }

    @Override
    LedgerStore create() throws IOException {
        return JournalLedgerStore.open("l1", dir.resolve("journal"), options(segmentBytes)); // never reopens itself
    }

    private LedgerStore reopen() throws IOException {
        store.close();
        store = create();
        return store;
    }

    private List<Path> segments() throws IOException {
        try (Stream<Path> files = Files.list(dir.resolve("journal"))) {
            return files.sorted().toList();
        }
    }

    @Test
    void everythingAnsweredSurvivesAReopen() throws Exception {
        LedgerStore s = store();
        for (long i = 1; i <= 300; i += 3) {
            s.append(1, 1, false, entries(1, i, i + 2));
            s.append(2, 1, false, entries(2, i, i + 2));
        }
        s.append(3, 1, false, entries(3, 1, 5)).join();
        s.fence(2).join();
        s.truncate(1, 101).join();
        s = reopen();
        assertThat(s.read(1, 101, 1000)).containsExactlyElementsOf(entries(1, 101, 300));
        assertThat(s.read(1, 1, 10)).as("truncated entries stay gone").isEmpty();
        assertThat(s.read(2, 1, 1000)).containsExactlyElementsOf(entries(2, 1, 300));
        assertThat(s.lastEntry(3)).isEqualTo(5);
        assertThat(s.fenced(2)).isTrue();
        assertThat(refusal(s.append(2, 1, false, entries(2, 301, 301)))).isEqualTo(LedgerException.Kind.FENCED);
        assertThat(s.append(1, 1, false, entries(1, 301, 301)).join()).isEqualTo(301);
    }

    @Test
    void aWriteTornByACrashIsCutAndNeverServed() throws Exception {
        LedgerStore s = store();
        s.append(7, 1, false, entries(1, 4)).join();
        store.close();
        Path last = segments().get(segments().size() - 1);
        long end = frameEnd(last);
        try (FileChannel ch = FileChannel.open(last, StandardOpenOption.WRITE)) {
            ByteBuffer torn = ByteBuffer.allocate(300);
            JournalFrame.writeEntry(torn, entries(5, 5).get(0));
            torn.flip().limit(torn.limit() - 3);
            ch.write(torn, end);
        }
        store = create();
        assertThat(store.lastEntry(7)).isEqualTo(4);
        assertThat(store.append(7, 1, false, entries(5, 6)).join()).isEqualTo(6);
        assertThat(reopen().read(7, 1, 10)).containsExactlyElementsOf(entries(1, 6));
    }

    /** Where the intact frames of a segment end. */
    private static long frameEnd(Path segment) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(segment));
        while (JournalFrame.read(b) != null) {
            continue;
        }
        return b.position();
    }

    @Test
    void damageBeforeTheNewestSegmentRefusesToOpen() throws Exception {
        LedgerStore s = store();
        s.append(7, 1, false, entries(1, 3)).join();
        s = reopen();
        s.append(7, 1, false, entries(4, 5)).join();
        store.close();
        store = null;
        Path first = segments().get(0);
        try (FileChannel ch = FileChannel.open(first, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(new byte[] {(byte) 0xFF}), frameEnd(first) - 2);
        }
        assertThatThrownBy(this::create).isInstanceOf(IOException.class).hasMessageContaining("damaged at offset")
                .hasMessageContaining("is not the newest");
    }

    @Test
    void aDiskErrorFailsThatGroupAndEverythingAfterUntilReopened() throws Exception {
        LedgerStore s = store();
        s.append(7, 1, false, entries(1, 2)).join();
        assertThat(s.failure()).isNull();
        failSync.set(true);
        assertThat(refusal(s.append(7, 1, false, entries(3, 4)))).isEqualTo(LedgerException.Kind.UNAVAILABLE);
        assertThat(s.failure()).as("it says why it takes no writes").contains("injected fsync failure");
        failSync.set(false);
        assertThat(refusal(s.append(7, 1, false, entries(3, 4)))).isEqualTo(LedgerException.Kind.UNAVAILABLE);
        assertThat(refusal(s.fence(7))).isEqualTo(LedgerException.Kind.UNAVAILABLE);
        assertThat(s.lastEntry(7)).isEqualTo(2);
        assertThat(reopen().read(7, 1, 10)).as("what was answered is there; the failed group may or may not be")
                .startsWith(entries(1, 2).toArray(new LedgerEntry[0]));
        assertThat(store.failure()).as("reopened, it takes writes again").isNull();
    }

    @Test
    void aRestartRightAfterAFailedFsyncDoesNotTakeTheUnsyncedEntriesForDurable() throws Exception {
        LedgerStore s = store();
        s.append(7, 1, false, entries(1, 2)).join();
        failSync.set(true);
        assertThat(refusal(s.append(7, 1, false, entries(3, 4)))).isEqualTo(LedgerException.Kind.UNAVAILABLE);
        failSync.set(false);
        // the process restarts before any probe: the page cache still shows what the failed fsync did not make durable
        assertThat(reopen().lastEntry(7)).as("entries answered as failed are not held").isEqualTo(2);
        assertThat(store.read(7, 1, 10)).containsExactlyElementsOf(entries(1, 2));
        store.append(7, 1, false, entries(3, 4)).join();
        assertThat(reopen().read(7, 1, 10)).as("written anew, with an fsync").containsExactlyElementsOf(entries(1, 4));
    }

    @Test
    void aFailedFsyncInAFreshSegmentLeavesNothingOfIt() throws Exception {
        failSync.set(true);
        LedgerStore s = store();
        assertThat(refusal(s.append(7, 1, false, entries(1, 2)))).isEqualTo(LedgerException.Kind.UNAVAILABLE);
        failSync.set(false);
        assertThat(reopen().lastEntry(7)).as("no fsync ever succeeded on the segment").isEqualTo(0);
        store.append(7, 1, false, entries(1, 2)).join();
        assertThat(reopen().read(7, 1, 10)).containsExactlyElementsOf(entries(1, 2));
    }

    @Test
    void segmentsAreDeletedOnceEveryEntryInThemIsTruncatedAndFencesSurvive() throws Exception {
        segmentBytes = 4096;
        LedgerStore s = store();
        s.fence(9).join();
        for (long i = 1; i <= 400; i++) {
            s.append(1, 1, false, entries(1, i, i));
            s.append(2, 1, false, entries(2, i, i)).join();
        }
        int before = segments().size();
        assertThat(before).as("4 KB segments").isGreaterThan(3);
        s.truncate(1, 390).join();
        assertThat(segments()).as("ledger 2 still needs them").hasSize(before);
        s.truncate(2, 390).join();
        s.append(2, 1, false, entries(2, 401, 401)).join();
        assertThat(segments().size()).isLessThan(before);
        s = reopen();
        assertThat(s.fenced(9)).as("the fence was in a deleted segment, and in the state of the newer ones").isTrue();
        assertThat(s.read(1, 390, 100)).containsExactlyElementsOf(entries(1, 390, 400));
        assertThat(s.read(2, 390, 100)).containsExactlyElementsOf(entries(2, 390, 401));
    }

    @Test
    void aWhollyTruncatedLedgerKeepsItsLastEntryAfterItsSegmentsAreGone() throws Exception {
        segmentBytes = 4096;
        LedgerStore s = store();
        for (long i = 1; i <= 200; i++) {
            s.append(5, 1, false, entries(5, i, i)).join();
        }
        for (long i = 1; i <= 3; i++) {
            LedgerEntry big = new LedgerEntry(6, i, 3, 2, LogRecord.PUT, ("k" + i).getBytes(), new byte[3000]);
            s.append(6, 1, false, List.of(big)).join();
        }
        int before = segments().size();
        s.truncate(5, 1000).join();
        s.append(6, 1, false, entries(6, 4, 4)).join();
        assertThat(segments().size()).as("the segments of ledger 5 are gone").isLessThan(before - 2);
        s = reopen();
        assertThat(s.lastEntry(5)).as("from the truncation record").isEqualTo(200);
        assertThat(s.append(5, 1, false, entries(5, 201, 201)).join()).isEqualTo(201);
        assertThat(s.read(6, 4, 1000)).containsExactlyElementsOf(entries(6, 4, 4));
    }
}
