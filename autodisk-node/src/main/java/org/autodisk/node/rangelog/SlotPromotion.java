package org.autodisk.node.rangelog;

import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.autodisk.node.ledger.LedgerException;
import org.autodisk.node.ledger.LedgerWriter;
import org.autodisk.node.meta.LedgerInfo;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.meta.RangeState;
import org.autodisk.node.store.LocalStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The steps of a {@link RangeSlot}'s start that a failover adds, and the lease every start ends with: a range promoted
 * here (state RECOVERING) is taken over from the backup copy once its ledgers are closed; every new writer renews its
 * lease once and waits out what is left of the former owner's lease before the range serves; a promoted range then
 * commits that it serves ({@code range-recovered}) and the backup copy of its span is dropped.
 */
final class SlotPromotion {

    private static final Logger LOG = LoggerFactory.getLogger(SlotPromotion.class);

    private final SlotContext ctx;
    private final RangeDescriptor range;
    private final Consumer<String> problem;

    SlotPromotion(SlotContext ctx, RangeDescriptor range, Consumer<String> problem) {
        this.ctx = ctx;
        this.range = range;
        this.problem = problem;
    }

    /** Tells whether the metadata has the range promoted here and not serving yet (failover). */
    boolean recovering() {
        RangeDescriptor now = ctx.metadata().current().range(range.id());
        return now != null && now.epoch() == range.epoch() && now.owner().equals(ctx.self())
                && now.state() == RangeState.RECOVERING;
    }

    /**
     * When the former owner's lease has surely run out: as the fences of its ledger bounded it; for a promoted range
     * whose former owner's ledger was closed before this start (another node's start recovered it, say), a whole
     * lease from this start; for a range whose last ledger is another node's, closed before this process started
     * (this node fenced it, then restarted), a whole lease from the process's start.
     *
     * @param fenced    what the fences of this start bounded it to, or {@code null}
     * @param startedAt when this start began (timer nanos)
     * @return timer nanos, or {@code null} for no wait
     */
    Long leaseEnds(Long fenced, long startedAt) {
        long bound = ctx.leaseBound().toNanos();
        if (fenced != null || bound == 0) {
            return fenced;
        }
        if (recovering()) {
            return startedAt + bound;
        }
        return ctx.metadata().current().ledgersOf(range).stream().max(Comparator.comparingLong(LedgerInfo::id))
                .filter(l -> !l.writer().equals(ctx.self())).map(l -> ctx.openedAt() + bound).orElse(null);
    }

    /**
     * The later of two instants (timer nanos), either of which may be missing.
     *
     * @param a one, or {@code null}
     * @param b the other, or {@code null}
     * @return the later, or {@code null} if both are missing
     */
    static Long later(Long a, Long b) {
        return a == null ? b : b == null || a - b > 0 ? a : b;
    }

    /**
     * A promoted range: the store takes the range over from the backup copy (its ledgers are closed by now).
     *
     * @return completes once taken over (at once for a range that is not promoted)
     */
    CompletableFuture<Void> takeOver() {
        if (!recovering()) {
            return CompletableFuture.completedFuture(null);
        }
        problem.accept("taking the range over from its backup copy");
        return new BackupTakeover(ctx, range).run(ctx.slow());
    }

    /**
     * Renews the new writer's lease once and waits out what is left of the former owner's: the first request then
     * finds both.
     *
     * @param w           the new writer
     * @param formerEnds  when the former owner's lease ran out (timer nanos), or {@code null}
     * @return the writer, then
     */
    CompletableFuture<LedgerWriter> leased(LedgerWriter w, Long formerEnds) {
        CompletableFuture<LedgerWriter> out = new CompletableFuture<>();
        List<String> ask = w.toRenew(ctx.timer().nanoTime(), 0);
        AtomicInteger left = new AtomicInteger(ask.size());
        if (ask.isEmpty()) {
            afterFormerLease(w, formerEnds, out);
        }
        for (String node : ask) {
            long sent = ctx.timer().nanoTime();
            ctx.peers().confirm(node, List.of(w.ledger().id())).whenComplete((fenced, err) -> {
                w.leaseAnswered(node, sent, err == null && fenced.contains(w.ledger().id()), err);
                if (left.decrementAndGet() == 0) {
                    afterFormerLease(w, formerEnds, out);
                }
            });
        }
        return out;
    }

    private void afterFormerLease(LedgerWriter w, Long ends, CompletableFuture<LedgerWriter> out) {
        long wait = ends == null ? 0 : TimeUnit.NANOSECONDS.toMillis(ends - ctx.timer().nanoTime()) + 1;
        if (wait <= 0) {
            out.complete(w);
            return;
        }
        String why = "waiting " + wait + " ms for the lease of the range's former owner to run out";
        problem.accept(why);
        LOG.info("{}: range {}: {}", ctx.self(), range.id(), why);
        ctx.timer().schedule(wait, () -> out.complete(w));
    }

    /**
     * A promoted range serves once the metadata says so; the backup copy of its span is dropped then.
     *
     * @param w the writer
     * @return the writer, once committed (at once for a range that is not promoted)
     */
    CompletableFuture<LedgerWriter> recovered(LedgerWriter w) {
        if (!recovering()) {
            return CompletableFuture.completedFuture(w);
        }
        problem.accept("committing that it serves");
        return ctx.metadata().submit(new MetaCommand.RangeRecovered(range.id(), range.epoch()),
                ctx.writer().metadataTimeout()).thenApplyAsync(r -> {
                    if (!r.applied() && recovering()) {
                        throw new LedgerException(LedgerException.Kind.REFUSED, "not recovered: " + r.refusal());
                    }
                    dropBackupCopy();
                    return w;
                }, ctx.slow());
    }

    private void dropBackupCopy() {
        LocalStore copy = ctx.backups().get();
        long n = copy.deleteRange(range.low(), range.high());
        copy.makeDurable();
        LOG.info("{}: range {} {} serves here after its failover (epoch {}); dropped the {} streams of its backup "
                + "copy", ctx.self(), range.id(), range.span(), range.epoch(), n);
    }
}
