package org.autodisk.node.rangelog;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.autodisk.node.ledger.LedgerEntry;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.meta.RangeState;
import org.autodisk.node.store.ForwardingStore;
import org.autodisk.node.store.LocalStore;
import org.autodisk.node.store.LocalStores;
import org.autodisk.node.store.StoreException;
import org.autodisk.node.wire.LogRecord;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The owner's apply path, where defect 6 of the previous log shipping lived (the log simulation models it in
 * {@code SimOwner}; this drives the real {@link ApplyThread}): groups acknowledged after one the store failed to
 * apply are not applied either, so the ledger's applied entry never passes the failed one, and their writes are
 * answered with the failure; the replay once the range recovered applies them all.
 */
class ApplyThreadTest {

    private static LedgerEntry entry(long id) {
        return new LedgerEntry(1, id, 0, 1, LogRecord.PUT, ("k" + id).getBytes(), ("v" + id).getBytes());
    }

    private static ApplyThread.Result answer(ApplyThread apply, LedgerEntry e) throws Exception {
        CompletableFuture<ApplyThread.Result> r = new CompletableFuture<>();
        apply.answer(e, r::complete);
        return r.get(10, TimeUnit.SECONDS);
    }

    private static RangeSlot slot(LocalStore store) {
        RangeDescriptor range = new RangeDescriptor(0, new byte[0], null, "d1", List.of(), List.of("l1"), 1, 1,
                RangeState.SERVING);
        return new RangeSlot(new SlotContext("d1", null, null, null, null, store, null, null, List.of(), null, null,
                null, java.time.Duration.ZERO, CopiesInto.NONE, 0), range,
                new CompletableFuture<>());
    }

    @Test
    void aGroupIsAcknowledgedOnTheApplyThreadOnceAppliedAndItsWritesAreAnsweredThereAtOnce() throws Exception {
        LocalStore store = LocalStores.inMemory();
        RangeSlot slot = slot(store);
        CompletableFuture<byte[]> storedAtAck = new CompletableFuture<>();
        CompletableFuture<Boolean> answeredInline = new CompletableFuture<>();
        CompletableFuture<ApplyThread.Result> result = new CompletableFuture<>();
        try (ApplyThread apply = new ApplyThread("d1", store)) {
            apply.acknowledged(slot, List.of(entry(1), entry(2)), () -> {
                storedAtAck.complete(store.get("k2".getBytes()));
                apply.answer(entry(2), result::complete);
                answeredInline.complete(result.isDone());
            });
            assertThat(storedAtAck.get(10, TimeUnit.SECONDS)).as("applied before the acknowledgement")
                    .isEqualTo("v2".getBytes());
            assertThat(answeredInline.get(10, TimeUnit.SECONDS)).as("answered inline, not queued").isTrue();
            assertThat(result.get(10, TimeUnit.SECONDS).failure()).isNull();
            assertThat(result.get().changed()).isTrue();
            assertThat(answer(apply, entry(1)).changed()).as("an answer from another thread is queued").isTrue();
        }
    }

    @Test
    @DisplayName("defect 6: a failed store apply is skipped instead of halting")
    void aGroupAcknowledgedAfterAFailedApplyIsNotAppliedAndTheAppliedEntryStaysBeforeTheFailure() throws Exception {
        AtomicBoolean failing = new AtomicBoolean();
        LocalStore store = new ForwardingStore(LocalStores.inMemory()) {
            @Override
            public boolean[] applyLedger(long ledgerId, List<LogRecord> entries) {
                if (failing.getAndSet(false)) {
                    throw new StoreException("injected apply failure", null);
                }
                return super.applyLedger(ledgerId, entries);
            }
        };
        RangeSlot slot = slot(store);
        try (ApplyThread apply = new ApplyThread("d1", store)) {
            apply.acknowledged(slot, List.of(entry(1)), () -> { });
            assertThat(answer(apply, entry(1)).failure()).isNull();
            failing.set(true);
            apply.acknowledged(slot, List.of(entry(2)), () -> { });
            apply.acknowledged(slot, List.of(entry(3), entry(4)), () -> { });

            assertThat(answer(apply, entry(2)).failure()).hasMessageContaining("injected apply failure");
            assertThat(answer(apply, entry(4)).failure()).as("a later group is answered with the failure")
                    .isNotNull();
            assertThat(slot.halted()).isNotNull();
            assertThat(store.appliedEntry(1)).as("never past the entry that failed").isEqualTo(1);
            assertThat(store.get("k3".getBytes())).isNull();

            assertThat(apply.replay(1, List.of(entry(2), entry(3), entry(4)), () -> true).get(10, TimeUnit.SECONDS))
                    .as("the replay after recovery applies them").isEqualTo(3);
            assertThat(store.appliedEntry(1)).isEqualTo(4);
        }
    }
}
