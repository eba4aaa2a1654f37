package org.autodisk.node.rangelog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.autodisk.core.Keys;
import org.autodisk.node.ledger.LedgerEntry;
import org.autodisk.node.meta.LedgerInfo;
import org.autodisk.node.meta.LedgerState;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.MigrationInfo;
import org.autodisk.node.meta.MigrationPhase;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.meta.RangeState;
import org.autodisk.node.store.LocalStore;
import org.autodisk.node.wire.LedgerHandover;
import org.autodisk.node.wire.LogRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * At a migration's cutover the source's handover carries the last entries its writer acknowledged, kept only while
 * the range moves away and bounded; the target replays the entries past its catch-up from them, without reading a log
 * node, and reads whatever they do not cover.
 */
class HandoverTailTest {

    private static final long LEDGER = 7;

    private final SlotHarness harness = new SlotHarness();
    private final LocalStore store = harness.store;
    private final CutoverLedgers cutovers = new CutoverLedgers();
    private final CountedReads peers = new CountedReads();

    @AfterEach
    void stop() {
        harness.close();
    }

    private static LedgerEntry entry(long id) {
        return new LedgerEntry(LEDGER, id, 0, 2, LogRecord.PUT, Keys.utf8("key-" + id), Keys.utf8("value-" + id));
    }

    private static List<LedgerEntry> entries(long from, long to) {
        return LongStream.rangeClosed(from, to).mapToObj(HandoverTailTest::entry).toList();
    }

    @Test
    void entriesAreKeptOnlyWhileTheRangeMovesAwayBoundedAndFromTheLastGapOn() {
        RecentEntries recent = new RecentEntries();
        recent.acknowledged(entries(1, 10));
        assertThat(recent.tail(LEDGER, 10)).as("not moving").isEmpty();
        recent.keep(true);
        recent.acknowledged(entries(11, 20));
        assertThat(recent.tail(LEDGER, 20)).extracting(LogRecord::lsn).containsExactlyElementsOf(
                LongStream.rangeClosed(11, 20).boxed().toList());
        assertThat(recent.tail(LEDGER, 15)).extracting(LogRecord::lsn).containsExactly(11L, 12L, 13L, 14L, 15L);
        assertThat(recent.tail(LEDGER, 21)).as("does not reach the end").isEmpty();
        assertThat(recent.tail(LEDGER + 1, 20)).isEmpty();
        recent.acknowledged(entries(30, 31));
        assertThat(recent.tail(LEDGER, 31)).as("a gap starts anew").extracting(LogRecord::lsn)
                .containsExactly(30L, 31L);
        recent.acknowledged(entries(32, 32 + RecentEntries.MAX_ENTRIES));
        assertThat(recent.tail(LEDGER, 32 + RecentEntries.MAX_ENTRIES)).hasSize(RecentEntries.MAX_ENTRIES);
        recent.keep(false);
        assertThat(recent.tail(LEDGER, 32 + RecentEntries.MAX_ENTRIES)).isEmpty();
    }

    @Test
    void theTargetReplaysTheHandedOverTailWithoutReadingALogNode() {
        assertThat(replayWithHandover(81)).as("entries applied").isEqualTo(100);
        assertThat(peers.reads).as("log node reads").hasValue(0);
    }

    @Test
    void aTailThatDoesNotReachBackFarEnoughIsReadFromTheLogNodes() {
        assertThat(replayWithHandover(95)).isEqualTo(100);
        assertThat(peers.reads.get()).isPositive();
    }

    /** d1, the target, applied the source's ledger to entry 90; the source hands it over at 100. */
    private long replayWithHandover(long tailFrom) {
        store.applyLedger(LEDGER, entries(1, 90).stream().map(LedgerEntry::toRecord).toList());
        RangeDescriptor r = new RangeDescriptor(0, new byte[0], null, "d1", List.of(), List.of("l1"), 3, 1,
                RangeState.SERVING);
        LedgerInfo open = new LedgerInfo(LEDGER, 0, new byte[0], null, 2, "d2", List.of(new LedgerInfo.Fragment(1,
                List.of("l1"))), LedgerState.OPEN, 0);
        MigrationInfo m = new MigrationInfo(4, 0, "d2", "d1", 2, MigrationPhase.CLEANING_UP, false, 0, 90, 9000, "",
                "rules", false, 1, null);
        MetaState s = new MetaState(20, "range", List.of(), List.of(r), 1, new MetaState.Creation(List.of("d1", "d2"),
                List.of()), List.of(open), LEDGER + 1, List.of(m), 5);
        cutovers.handOver(new LedgerHandover(LEDGER, 100, 0, "d2", entries(tailFrom, 100).stream()
                .map(LedgerEntry::toRecord).toList()));
        harness.ledgers(new StaleSlotTest.Following(s), peers, cutovers).reconcile(s);
        await().until(() -> store.appliedEntry(LEDGER) == 100);
        return store.appliedEntry(LEDGER);
    }

    /** Log node l1 holding entries 1 to 100 of the ledger; counts the reads. */
    private static final class CountedReads extends ReadingPeers {
        final AtomicInteger reads = new AtomicInteger();

        @Override
        public CompletableFuture<List<LedgerEntry>> read(String logNode, long ledgerId, long from, int max) {
            reads.incrementAndGet();
            return CompletableFuture.completedFuture(entries(from, Math.min(100, from + max - 1)));
        }
    }
}
