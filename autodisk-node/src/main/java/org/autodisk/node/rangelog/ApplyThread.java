package org.autodisk.node.rangelog;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.autodisk.core.net.WriteBurst;
import org.autodisk.node.ledger.LedgerEntry;
import org.autodisk.node.store.LocalStore;
import org.autodisk.node.store.StoreException;
import org.autodisk.node.wire.LogRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The data node's one apply thread: acknowledged entries of every range go to the store here, in the order their
 * writers acknowledged them (each group in one atomic write with its ledger's applied entry), never on a network
 * thread; the answer to each write is given here after its entry was applied. A range whose apply failed is halted:
 * nothing more of it is applied until it recovered and replayed from what the store holds.
 */
final class ApplyThread implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ApplyThread.class);

    /** How one entry's apply went: whether it changed the stream, or why it was not applied. */
    record Result(boolean changed, long durableNanos, RuntimeException failure) {
    }

    private record Key(long ledger, long entry) {
    }

    private final String self;
    private final LocalStore store;
    private final ExecutorService thread;
    private final Map<Key, Result> results = new HashMap<>();
    private volatile Thread applier;

    ApplyThread(String self, LocalStore store) {
        this.self = self;
        this.store = store;
        ThreadFactory factory = Thread.ofPlatform().name(self + "-apply").daemon().factory();
        this.thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = factory.newThread(r);
            applier = t;
            return t;
        });
    }

    /**
     * Applies a group its writer acknowledged (queued behind every group acknowledged before it).
     *
     * @param slot        the range it belongs to (halted if the store fails)
     * @param entries     the group, of one ledger, in id order
     * @param acknowledge completes the writer's futures of the group: run here once it was applied, so that their
     *                    answers follow at once on this thread
     */
    void acknowledged(RangeSlot slot, List<LedgerEntry> entries, Runnable acknowledge) {
        long durable = System.nanoTime();
        try {
            thread.execute(() -> {
                apply(slot, entries, durable);
                WriteBurst.run(acknowledge); // the group's answers leave together, one task per connection
            });
        } catch (RejectedExecutionException e) {
            acknowledge.run();
        }
    }

    private void apply(RangeSlot slot, List<LedgerEntry> entries, long durable) {
        long ledger = entries.get(0).ledgerId();
        RuntimeException failure = slot.halted();
        boolean[] changed = new boolean[entries.size()];
        if (failure == null) {
            try {
                changed = store.applyLedger(ledger, entries.stream().map(LedgerEntry::toRecord).toList());
            } catch (RuntimeException e) {
                LOG.error("{}: applying {} entries of ledger {} failed; range {} halts until it recovers", self,
                        entries.size(), ledger, slot.rangeId(), e);
                failure = e instanceof StoreException ? e : new StoreException(e.getMessage(), e);
                slot.halt(failure);
            }
        }
        for (int i = 0; i < changed.length; i++) {
            results.put(new Key(ledger, entries.get(i).entryId()), new Result(changed[i], durable, failure));
        }
    }

    /**
     * Answers a write once its entry's group was applied: at once when called on this thread (its writer's future
     * completed right after the apply), else queued behind that group.
     *
     * @param entry  the acknowledged entry
     * @param answer takes how it went
     */
    void answer(LedgerEntry entry, Consumer<Result> answer) {
        if (Thread.currentThread() == applier) {
            answer.accept(result(entry));
            return;
        }
        try {
            thread.execute(() -> answer.accept(result(entry)));
        } catch (RejectedExecutionException e) {
            answer.accept(result(entry));
        }
    }

    private Result result(LedgerEntry entry) {
        Result r = Thread.currentThread() == applier ? results.remove(new Key(entry.ledgerId(), entry.entryId()))
                : null;
        return r != null ? r : new Result(false, System.nanoTime(), new IllegalStateException(
                self + ": " + entry + " was acknowledged but never handed to the store"));
    }

    /**
     * Applies replayed entries of a closed ledger (those the store applied already are skipped), unless the range
     * changed meanwhile: a slot started from a stale view (a restarted node follows the metadata's history) must not
     * put back what the range's clean-up deleted.
     *
     * @param ledger  the ledger
     * @param entries entries in id order
     * @param wanted  asked on this thread right before the apply: false fails the replay with {@link RangeSlot.Retired}
     * @return how many of them were applied (not applied before), once applied
     */
    CompletableFuture<Long> replay(long ledger, List<LedgerEntry> entries, BooleanSupplier wanted) {
        return CompletableFuture.supplyAsync(() -> {
            if (!wanted.getAsBoolean()) {
                throw new RangeSlot.Retired(self + ": the range of ledger " + ledger + " changed; its replay stops");
            }
            long before = store.appliedEntry(ledger);
            List<LogRecord> records = entries.stream().map(LedgerEntry::toRecord).toList();
            store.applyLedger(ledger, records);
            return Math.max(0, store.appliedEntry(ledger) - before);
        }, thread);
    }

    @Override
    public void close() {
        thread.shutdown();
        try {
            thread.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
