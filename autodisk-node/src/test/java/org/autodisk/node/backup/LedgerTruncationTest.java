package org.autodisk.node.backup;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.autodisk.node.ledger.LedgerEntry;
import org.autodisk.node.ledger.LedgerStore;
import org.autodisk.node.meta.InMemoryMetadataGroup;
import org.autodisk.node.meta.LedgerInfo;
import org.autodisk.node.meta.LedgerState;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.MigrationInfo;
import org.autodisk.node.meta.MigrationPhase;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.meta.RangeState;
import org.junit.jupiter.api.Test;

/**
 * What the log nodes may drop of a ledger: nothing while a range it overlaps is taken over by its promoted backup (the
 * store of that owner is not a holder yet; a takeover run again replaces the store's span); nothing a holder the
 * metadata had committed before the answers still needs, however old the views of the log node and the answering
 * node were.
 */
class LedgerTruncationTest {

    private static final byte[] MIDDLE = {0x55};

    private static MetaState with(RangeState lowerState) {
        RangeDescriptor lower = new RangeDescriptor(0, new byte[0], MIDDLE, "d2", List.of(), List.of("l1"), 3, 1,
                lowerState);
        RangeDescriptor upper = new RangeDescriptor(1, MIDDLE, null, "d3", List.of("d1"), List.of("l1"), 3, 1,
                RangeState.SERVING);
        return new MetaState(9, "range", List.of(), List.of(lower, upper), 2, null, List.of(), 20, List.of(), 1);
    }

    private static LedgerInfo ledgerOf(long id, byte[] low, byte[] high) {
        return new LedgerInfo(id, 0, low, high, 2, "d1", List.of(new LedgerInfo.Fragment(1, List.of("l1"))),
                LedgerState.CLOSED, 100);
    }

    @Test
    void aLedgerOfARangeTakenOverByItsPromotedBackupIsKeptWhole() {
        LedgerInfo lowerLedger = ledgerOf(4, new byte[0], MIDDLE);
        LedgerInfo upperLedger = ledgerOf(5, MIDDLE, null);
        LedgerInfo parentLedger = ledgerOf(3, new byte[0], null);

        assertThat(LedgerTruncation.keptWhole(with(RangeState.RECOVERING), lowerLedger)).isTrue();
        assertThat(LedgerTruncation.keptWhole(with(RangeState.RECOVERING), parentLedger)).as("overlaps it").isTrue();
        assertThat(LedgerTruncation.keptWhole(with(RangeState.RECOVERING), upperLedger)).as("another range's")
                .isFalse();
        assertThat(LedgerTruncation.keptWhole(with(RangeState.SERVING), lowerLedger)).as("served again").isFalse();
    }

    /**
     * The schedule of a fault run (seed 363429781288): a log node whose view of the metadata did not have the backup
     * fill yet asked the owner, whose store had moved past the fill's snapshot (28) to 30 durably, and dropped entry
     * 30, which the fill's target still needed and only that log node held.
     */
    @Test
    void anAnswerGivenUnderANewerViewOfTheMetadataDropsNothing() {
        LedgerTruncation.Holders onlyTheOwner = new LedgerTruncation.Holders();
        onlyTheOwner.add(new LedgerCopies.Held(40, 30, 12));
        assertThat(onlyTheOwner.dropBelow(11)).as("the view lacks the fill the owner knew of").isZero();

        LedgerTruncation.Holders withTheTarget = new LedgerTruncation.Holders();
        withTheTarget.add(new LedgerCopies.Held(40, 30, 12));
        withTheTarget.add(new LedgerCopies.Held(29, 29, 12));
        assertThat(withTheTarget.dropBelow(12)).as("a view with the fill counts its target").isEqualTo(30);
        assertThat(withTheTarget.dropBelow(15)).isEqualTo(30);
    }

    /**
     * The schedule the versions in the answers do not cover: the owner d1 has just restarted and answers under an old
     * view (v5), while this log node's view (v11) lacks the backup fill to d3 committed at v12, before the owner's
     * store moved past the fill's snapshot (28) to entry 30 durably. The holders are taken from the view read after
     * asking how far the group committed, so d3 counts (first as not asked yet, then with its answer); with this log
     * node's own view, entries 29 and 30, which d3 still needs, would go.
     */
    @Test
    void aHolderCommittedBeforeTheAnswersCountsHoweverOldTheAnswerersViewWas() {
        LedgerInfo ledger = new LedgerInfo(82, 0, new byte[0], null, 3, "d1",
                List.of(new LedgerInfo.Fragment(1, List.of("l1"))), LedgerState.CLOSED, 40);
        RangeDescriptor range = new RangeDescriptor(0, new byte[0], null, "d1", List.of(), List.of("l1"), 3, 1,
                RangeState.SERVING);
        MetaState before = new MetaState(11, "range", List.of(), List.of(range), 1, null, List.of(ledger), 83,
                List.of(), 1);
        MigrationInfo fill = new MigrationInfo(1, 0, "d1", "d3", 3, MigrationPhase.CATCHING_UP, false,
                MigrationInfo.DEFAULT_RATE, 0, 0, null, "rules", true, 1, null);
        MetaState committed = new MetaState(12, "range", List.of(), List.of(range), 1, null, List.of(ledger), 83,
                List.of(fill), 2);
        LedgerStore store = LedgerStore.inMemory("l1");
        store.append(82, 1, false, entries(82, 1, 40)).join();
        FakeAnswers answers = new FakeAnswers(Map.of("d1", new LedgerCopies.Held(40, 30, 5),
                "d3", new LedgerCopies.Held(28, 28, 12)));
        AtomicLong clock = new AtomicLong();
        LedgerTruncation truncation = new LedgerTruncation("l1", store, answers, () -> committed,
                new LedgerDeletions("l1", new InMemoryMetadataGroup().member("l1"), Duration.ofSeconds(1)),
                clock::get);

        truncation.pass(before);
        assertThat(store.read(82, 1, 100)).as("d3 not asked yet: nothing dropped").hasSize(40);

        clock.addAndGet(TimeUnit.SECONDS.toNanos(1));
        truncation.pass(committed);
        assertThat(store.read(82, 28, 100)).as("dropped below 29").isEmpty();
        assertThat(store.read(82, 29, 100)).as("d3 holds entry 28 durably: it still needs 29 and 30").hasSize(12);
    }

    private static List<LedgerEntry> entries(long ledger, long from, long to) {
        return java.util.stream.LongStream.rangeClosed(from, to)
                .mapToObj(i -> new LedgerEntry(ledger, i, 0, 3, 1, new byte[] {(byte) i}, new byte[] {1})).toList();
    }

    /** Data nodes that answer what they hold now when asked; the log node otherwise knows their last answer. */
    private static final class FakeAnswers implements LedgerTruncation.Answers {
        private final Map<String, LedgerCopies.Held> now;
        private final Map<String, LedgerCopies.Held> known = new HashMap<>();

        FakeAnswers(Map<String, LedgerCopies.Held> now) {
            this.now = now;
        }

        private LedgerCopies.Held answer(String node, boolean ask) {
            if (ask) {
                known.put(node, now.get(node));
            }
            return known.getOrDefault(node, new LedgerCopies.Held(0, 0, 0));
        }

        @Override
        public LedgerCopies.Held store(String node, LedgerInfo l, boolean ask) {
            return answer(node, ask);
        }

        @Override
        public LedgerCopies.Held backup(String node, LedgerInfo l, boolean ask) {
            return answer(node, ask);
        }
    }
}
