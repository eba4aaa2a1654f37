package org.autodisk.node.rangelog;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.autodisk.node.ledger.LedgerEntry;
import org.autodisk.node.ledger.LedgerException;
import org.autodisk.node.ledger.LedgerReader;
import org.autodisk.node.meta.LedgerInfo;
import org.autodisk.node.meta.LedgerState;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.store.BulkLoad;
import org.autodisk.node.store.LocalStore;
import org.autodisk.node.store.StoreSnapshot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A promoted backup takes its range over (failover), once every ledger of the range is closed (the old owner's
 * recovered) and a move of the range to this node that the promotion ended has stopped copying: it catches its
 * backup copy up to the end of each of them from the log nodes, replaces whatever its store holds of the span by the
 * backup copy's streams, and records each ledger as applied to its end in the store, made durable. Safe to run
 * again after a crash: the backup copy keeps the range until the range serves, and it is made durable, caught up,
 * before the store's span is replaced (a run again may find the ledgers deleted, held by the store).
 */
final class BackupTakeover {

    private static final Logger LOG = LoggerFactory.getLogger(BackupTakeover.class);
    private static final int PAGE = 5_000;
    private static final long CHUNK_BYTES = 4L << 20;
    /** A bulk load is finished (an SST file ingested) at least every this many bytes. */
    private static final long LOAD_BYTES = 64L << 20;

    private final SlotContext ctx;
    private final RangeDescriptor range;

    BackupTakeover(SlotContext ctx, RangeDescriptor range) {
        this.ctx = ctx;
        this.range = range;
    }

    /**
     * Takes the range over on a thread of its own (it copies on the disk).
     *
     * @param executor where the copy runs
     * @return completes once the store holds the range
     */
    CompletableFuture<Void> run(Executor executor) {
        return CompletableFuture.runAsync(this::takeOver, executor);
    }

    private void takeOver() {
        long t0 = System.nanoTime();
        stopCopies();
        LocalStore copy = ctx.backups().get();
        List<LedgerInfo> ledgers = new ArrayList<>(ctx.metadata().current().ledgersOf(range));
        ledgers.sort(Comparator.comparingLong(LedgerInfo::id));
        long caughtUp = 0;
        for (LedgerInfo l : ledgers) {
            if (l.state() != LedgerState.CLOSED) {
                throw new LedgerException(LedgerException.Kind.UNAVAILABLE, l + " is not closed yet");
            }
            caughtUp += catchUp(copy, l);
        }
        // durable before the store's span is replaced: once the store holds the ledgers, the log nodes may delete
        // them, and a run again after a crash has only this copy to take the range from
        copy.makeDurable();
        long deleted = ctx.store().deleteRange(range.low(), range.high());
        long copied = copyInto(copy, ledgers);
        ctx.store().makeDurable();
        LOG.info("{}: range {} {} taken over from the backup copy: {} ledger entries caught up, {} streams copied "
                + "({} stale ones dropped) in {} ms", ctx.self(), range.id(), range.span(), caughtUp, copied, deleted,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
    }

    /** Stops a move of the range to this node that the promotion ended: nothing of its copy is written after. */
    private void stopCopies() {
        try {
            if (!ctx.copies().stop(range.id(), ctx.writer().metadataTimeout())) {
                throw new LedgerException(LedgerException.Kind.UNAVAILABLE, "a migration's copy into range "
                        + range.id() + " has not stopped yet");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LedgerException(LedgerException.Kind.UNAVAILABLE, "interrupted");
        }
    }

    /** Applies to the backup copy what it lacks of a closed ledger, page by page; returns how many entries. */
    private long catchUp(LocalStore copy, LedgerInfo l) {
        long n = 0;
        for (long from = copy.appliedEntry(l.id()) + 1; from <= l.lastEntry(); ) {
            List<LedgerEntry> page = await(new LedgerReader(ctx.peers()).read(l, from,
                    Math.min(l.lastEntry(), from + PAGE - 1)));
            copy.applyLedger(l.id(), page.stream().map(LedgerEntry::toRecord).toList());
            n += page.size();
            from += page.size();
        }
        return n;
    }

    /** Copies the span from a snapshot of the backup copy into the store, with the ledgers applied to their end. */
    private long copyInto(LocalStore copy, List<LedgerInfo> ledgers) {
        long copied = 0;
        try (StoreSnapshot snap = copy.snapshot(); BulkLoad load = ctx.store().bulkLoad()) {
            Map<Long, Long> positions = new HashMap<>();
            ledgers.forEach(l -> positions.put(l.id(), snap.appliedEntry(l.id())));
            byte[] from = range.low();
            long loaded = 0;
            while (from != null) {
                StoreSnapshot.Chunk chunk = snap.read(from, range.high(), CHUNK_BYTES);
                load.add(chunk.streams());
                copied += chunk.streams().size();
                loaded += chunk.bytes();
                if (loaded >= LOAD_BYTES) {
                    load.finish(Map.of());
                    loaded = 0;
                }
                from = chunk.next();
            }
            load.finish(positions);
        }
        return copied;
    }

    private <T> T await(CompletableFuture<T> f) {
        try {
            return f.get(ctx.writer().answerTimeout().toMillis() * 4, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LedgerException(LedgerException.Kind.UNAVAILABLE, "interrupted");
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new CompletionException(e.getCause());
        } catch (TimeoutException e) {
            throw new LedgerException(LedgerException.Kind.UNAVAILABLE, "the log nodes did not answer a read in time");
        }
    }
}
