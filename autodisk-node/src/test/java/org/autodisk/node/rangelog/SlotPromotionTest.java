package org.autodisk.node.rangelog;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;
import org.autodisk.node.ledger.WriterSettings;
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
import org.junit.jupiter.api.Test;

/**
 * How long a new writer waits for its range's former owner's lease: what its fences bounded; a whole lease from
 * its start for a promoted range whose old ledger was closed already; a whole lease from the process's start for a
 * range whose last ledger is another node's (this node may have fenced it just before it restarted); nothing for a
 * range whose last ledger is its own.
 */
class SlotPromotionTest {

    private static final Duration LEASE = Duration.ofMillis(2000);
    private static final Duration MARGIN = Duration.ofMillis(200);
    private static final long BOUND = LEASE.plus(MARGIN).toNanos();
    private static final long OPENED_AT = 1_000_000_000L;
    private static final long STARTED_AT = 50_000_000_000L;

    private static SlotPromotion promotion(RangeState state, String lastWriter) {
        RangeDescriptor range = new RangeDescriptor(0, new byte[0], null, "d2", List.of("d3"), List.of("l1"), 3, 1,
                state);
        List<LedgerInfo> ledgers = lastWriter == null ? List.of() : List.of(
                ledger(4, "d2"), ledger(7, lastWriter), ledger(5, "d9"));
        MetaState s = new MetaState(9, "range", List.of(), List.of(range), 1, null, ledgers, 8, List.of(), 1);
        SlotContext ctx = new SlotContext("d2", new Fixed(s), null, null, new WriterSettings(1, Duration.ofSeconds(2),
                Duration.ofSeconds(2), LEASE), null, null, null, List.of(), null, null, null, MARGIN,
                CopiesInto.NONE, OPENED_AT);
        return new SlotPromotion(ctx, range, why -> { });
    }

    private static LedgerInfo ledger(long id, String writer) {
        return new LedgerInfo(id, 0, new byte[0], null, 1, writer, List.of(new LedgerInfo.Fragment(0,
                List.of("l1"))), LedgerState.CLOSED, 10);
    }

    @Test
    void whatTheFencesBoundedComesFirst() {
        assertThat(promotion(RangeState.SERVING, "d1").leaseEnds(123L, STARTED_AT)).isEqualTo(123L);
        assertThat(promotion(RangeState.RECOVERING, "d1").leaseEnds(123L, STARTED_AT)).isEqualTo(123L);
    }

    @Test
    void aPromotedRangeWhoseOldLedgerWasClosedAlreadyWaitsAWholeLeaseFromItsStart() {
        assertThat(promotion(RangeState.RECOVERING, "d1").leaseEnds(null, STARTED_AT)).isEqualTo(STARTED_AT + BOUND);
    }

    @Test
    void aRangeWhoseLastLedgerIsAnotherNodesWaitsAWholeLeaseFromTheProcessStart() {
        assertThat(promotion(RangeState.SERVING, "d1").leaseEnds(null, STARTED_AT)).isEqualTo(OPENED_AT + BOUND);
    }

    @Test
    void aRangeWhoseLastLedgerIsItsOwnOrThatHasNoneWaitsForNothing() {
        assertThat(promotion(RangeState.SERVING, "d2").leaseEnds(null, STARTED_AT)).isNull();
        assertThat(promotion(RangeState.SERVING, null).leaseEnds(null, STARTED_AT)).isNull();
    }

    @Test
    void theLaterBoundIsKept() {
        assertThat(SlotPromotion.later(null, null)).isNull();
        assertThat(SlotPromotion.later(5L, null)).isEqualTo(5L);
        assertThat(SlotPromotion.later(null, 5L)).isEqualTo(5L);
        assertThat(SlotPromotion.later(5L, 9L)).isEqualTo(9L);
        assertThat(SlotPromotion.later(9L, 5L)).isEqualTo(9L);
        assertThat(SlotPromotion.later(Long.MAX_VALUE, Long.MIN_VALUE)).as("nanoTime wraps").isEqualTo(Long.MIN_VALUE);
    }

    /** Metadata that only has a state to read. */
    private record Fixed(MetaState current) implements Metadata {

        @Override
        public void subscribe(Consumer<MetaState> listener) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void subscribeCommands(Consumer<Applied> listener) {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletableFuture<MetaState> awaitVersion(long version, Duration timeout) {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletableFuture<CommandResult> submit(MetaCommand command, Duration deadline) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Histogram applyLag() {
            throw new UnsupportedOperationException();
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
