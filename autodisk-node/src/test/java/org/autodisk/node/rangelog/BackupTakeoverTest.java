package org.autodisk.node.rangelog;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.LongStream;
import org.autodisk.core.Keys;
import org.autodisk.node.ledger.LedgerEntry;
import org.autodisk.node.ledger.WriterSettings;
import org.autodisk.node.meta.LedgerInfo;
import org.autodisk.node.meta.LedgerState;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.meta.RangeState;
import org.autodisk.node.store.LocalStore;
import org.autodisk.node.store.LocalStores;
import org.autodisk.node.store.StoreCrashes;
import org.autodisk.node.wire.LogRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A promoted backup's takeover run again after a crash (RocksDB without its own WAL, as on a data node): the first run
 * caught the backup copy up from the old owner's ledger and put the range into the store, made durable; the log nodes
 * then deleted the ledger (the store held it wholly); the node was killed before the range served. The run again
 * finds no ledger to catch up from, so it must find the copy caught up (CI, 2026-11-27: it found the copy as the fill
 * had left it, replaced the store's span with it, and a range went back 25 s).
 */
class BackupTakeoverTest {

    private static final long LEDGER = 7;
    private static final long FILLED = 50;
    private static final long LAST = 120;

    @TempDir
    Path dir;

    private final ExecutorService slow = Executors.newSingleThreadExecutor();
    private LocalStore store;
    private LocalStore copy;

    @AfterEach
    void stop() {
        slow.shutdownNow();
        for (LocalStore s : new LocalStore[] {store, copy}) {
            if (s != null) {
                s.close();
            }
        }
    }

    @Test
    void aTakeoverRunAgainAfterACrashFindsTheCopyCaughtUpOnceTheLedgerIsGone() {
        open();
        copy.applyLedger(LEDGER, records(1, FILLED));
        copy.makeDurable(); // what a backup fill leaves: ingested, durable
        RangeDescriptor range = new RangeDescriptor(0, new byte[0], null, "d2", List.of(), List.of("l1"), 2, 1,
                RangeState.RECOVERING);
        LedgerInfo ledger = new LedgerInfo(LEDGER, 0, new byte[0], null, 1, "d1", List.of(new LedgerInfo.Fragment(1,
                List.of("l1"))), LedgerState.CLOSED, LAST);

        takeOver(range, List.of(ledger));
        assertThat(store.durableEntry(LEDGER)).as("the store holds the ledger durably").isEqualTo(LAST);
        StoreCrashes.kill(store);
        StoreCrashes.kill(copy);
        open();
        takeOver(range, List.of()); // the log nodes deleted the ledger meanwhile

        for (long i = 1; i <= LAST; i++) {
            assertThat(store.get(key(i))).as("key %d, acknowledged", i).isEqualTo(Keys.utf8("value-" + i));
        }
    }

    private void open() {
        store = LocalStores.rocksDbWithoutWal(dir.resolve("store"));
        copy = LocalStores.rocksDbWithoutWal(dir.resolve("copy"));
    }

    private void takeOver(RangeDescriptor range, List<LedgerInfo> ledgers) {
        MetaState s = new MetaState(9, "range", List.of(), List.of(range), 1, null, ledgers, LEDGER + 1, List.of(), 1);
        LocalStore backups = copy;
        SlotContext ctx = new SlotContext("d2", new StaleSlotTest.Following(s), new LogNode(), null,
                new WriterSettings(1, Duration.ofSeconds(2), Duration.ofSeconds(2), Duration.ZERO), store, null, null,
                List.of("l1"), null, () -> backups, slow, Duration.ZERO, CopiesInto.NONE, 0);
        new BackupTakeover(ctx, range).run(slow).join();
    }

    private static byte[] key(long i) {
        return Keys.utf8("key-" + i);
    }

    private static LedgerEntry entry(long id) {
        return new LedgerEntry(LEDGER, id, 0, 1, LogRecord.PUT, key(id), Keys.utf8("value-" + id));
    }

    private static List<LogRecord> records(long from, long to) {
        return LongStream.rangeClosed(from, to).mapToObj(i -> entry(i).toRecord()).toList();
    }

    /** Log node l1 holding the old owner's ledger through its last entry. */
    private static final class LogNode extends ReadingPeers {

        @Override
        public CompletableFuture<List<LedgerEntry>> read(String logNode, long ledgerId, long from, int max) {
            return CompletableFuture.completedFuture(LongStream.rangeClosed(from, Math.min(LAST, from + max - 1))
                    .mapToObj(BackupTakeoverTest::entry).toList());
        }
    }
}
