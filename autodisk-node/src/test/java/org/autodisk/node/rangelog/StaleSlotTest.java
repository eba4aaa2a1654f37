package org.autodisk.node.rangelog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;
import org.autodisk.core.Keys;
import org.autodisk.node.ledger.LedgerEntry;
import org.autodisk.node.meta.Applied;
import org.autodisk.node.meta.CommandResult;
import org.autodisk.node.meta.LedgerInfo;
import org.autodisk.node.meta.LedgerState;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.Metadata;
import org.autodisk.node.meta.MetadataStatus;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.meta.RangeState;
import org.autodisk.node.store.LocalStore;
import org.autodisk.node.wire.LogRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A restarted data node follows the metadata's history, so it may start the slot of a range it owned once and no
 * longer owns (the source of a move killed while it cleaned up, as in MigrationCrashIT): such a slot replays nothing
 * into the store once the metadata moved on, stops replaying when it is retired mid-replay, and counts as a writer of
 * the span until its start has ended, so that the clean-up never deletes the span under a replay that puts it back.
 */
class StaleSlotTest {

    private static final long LEDGER = 5;
    /** Three replay pages. */
    private static final long ENTRIES = 12_000;

    private final SlotHarness harness = new SlotHarness();
    private final LocalStore store = harness.store;
    private final Following meta = new Following();
    private final GatedReads peers = new GatedReads();

    @AfterEach
    void stop() {
        peers.gate.complete(null);
        harness.close();
    }

    private static RangeDescriptor range(String owner, long epoch) {
        return new RangeDescriptor(0, new byte[0], null, owner, List.of(), List.of("l1"), epoch, 1,
                RangeState.SERVING);
    }

    private static MetaState state(long version, RangeDescriptor range) {
        LedgerInfo closed = new LedgerInfo(LEDGER, 0, new byte[0], null, 1, "d9", List.of(new LedgerInfo.Fragment(1,
                List.of("l1"))), LedgerState.CLOSED, ENTRIES);
        return new MetaState(version, "range", List.of(), List.of(range), 1,
                new MetaState.Creation(List.of("d1", "d2"), List.of()), List.of(closed), LEDGER + 1, List.of(), 1);
    }

    private RangeLedgers ledgers() {
        return harness.ledgers(meta, peers, new CutoverLedgers());
    }

    @Test
    void aSlotRetiredWhileItReplaysAppliesNoMoreAndCountsAsAWriterUntilItsStartEnded() {
        MetaState owned = state(10, range("d1", 2));
        MetaState moved = state(11, range("d2", 3));
        meta.current = owned;
        RangeLedgers ledgers = ledgers();
        ledgers.reconcile(owned);
        await().until(() -> store.appliedEntry(LEDGER) == 5_000 && peers.waiting);

        meta.current = moved;
        ledgers.reconcile(moved);
        assertThat(ledgers.hasWriterOver(moved.range(0))).as("retired, but its replay has not ended").isTrue();

        peers.gate.complete(null);
        await().until(() -> !ledgers.hasWriterOver(moved.range(0)));
        assertThat(store.appliedEntry(LEDGER)).as("no page applied after the retirement").isEqualTo(5_000);
        assertThat(store.count()).isEqualTo(5_000);
    }

    @Test
    void aSlotOfAViewTheMetadataLeftBehindReplaysNothing() {
        MetaState owned = state(10, range("d1", 2));
        MetaState moved = state(11, range("d2", 3));
        meta.current = moved; // the node caught up while it was still applying the history
        peers.gate.complete(null);
        RangeLedgers ledgers = ledgers();
        ledgers.reconcile(owned);
        await().until(ledgers::describe, d -> d.contains("changed before its slot at epoch 2 started"));
        ledgers.reconcile(moved);
        await().until(() -> !ledgers.hasWriterOver(owned.range(0)));
        assertThat(store.appliedEntry(LEDGER)).isZero();
        assertThat(store.count()).isZero();
    }

    /** Log node l1 holding the closed ledger; reads past the first replay page wait for the gate. */
    private static final class GatedReads extends ReadingPeers {
        final CompletableFuture<Void> gate = new CompletableFuture<>();
        volatile boolean waiting;

        @Override
        public CompletableFuture<List<LedgerEntry>> read(String logNode, long ledgerId, long from, int max) {
            List<LedgerEntry> out = new ArrayList<>();
            for (long e = from; e < from + max && e <= ENTRIES; e++) {
                out.add(new LedgerEntry(ledgerId, e, 0, 1, LogRecord.PUT, Keys.utf8("key-" + e), Keys.utf8("v")));
            }
            if (from <= 5_000) {
                return CompletableFuture.completedFuture(out);
            }
            waiting = true;
            return gate.thenApply(v -> out);
        }
    }

    /** Metadata whose view the test sets; a ledger is never opened (the slots here must not get that far). */
    static final class Following implements Metadata {
        volatile MetaState current;

        Following() {
        }

        Following(MetaState state) {
            current = state;
        }

        @Override
        public MetaState current() {
            return current;
        }

        @Override
        public void subscribe(Consumer<MetaState> listener) {
        }

        @Override
        public void subscribeCommands(Consumer<Applied> listener) {
        }

        @Override
        public CompletableFuture<MetaState> awaitVersion(long version, Duration timeout) {
            return CompletableFuture.completedFuture(current);
        }

        @Override
        public CompletableFuture<CommandResult> submit(MetaCommand command, Duration deadline) {
            return CompletableFuture.failedFuture(new UnsupportedOperationException(command.toString()));
        }

        @Override
        public Histogram applyLag() {
            return new Histogram(2);
        }

        @Override
        public MetadataStatus status() {
            throw new UnsupportedOperationException();
        }

        @Override
        public void close() {
        }
    }
}
