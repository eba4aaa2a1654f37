package org.autodisk.node.rangelog;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import org.autodisk.node.ledger.LedgerEntry;
import org.autodisk.node.ledger.LedgerException;
import org.autodisk.node.ledger.LedgerRecovery;
import org.autodisk.node.ledger.LedgerWriter;
import org.autodisk.node.meta.LedgerInfo;
import org.autodisk.node.meta.LedgerState;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.MigrationInfo;
import org.autodisk.node.meta.MigrationPhase;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.wire.LedgerHandover;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A range's ledger handed from its former owner to its new owner at a migration's cutover. The former owner's slot,
 * retired, closes its ledger once every write it took is acknowledged and at that moment tells the new owner where
 * the ledger ends (LEDGER_HANDOVER), before the close commits. The new owner's slot waits for that word or the
 * committed close, whichever comes first (bounded by the answer timeout; then it recovers the ledger), replays to
 * there and serves: the pause of the range's writes is one message, not a metadata commit. The entry it was told is
 * the one the close commits at: the writer takes no entry after it, every entry up to it is on the ack quorum, so a
 * recovery, if the close never commits, finds the same end.
 */
final class SlotHandover {

    private static final Logger LOG = LoggerFactory.getLogger(SlotHandover.class);
    /** How often a new owner looks whether the source closed or handed over its ledger after a cutover. */
    private static final long CLOSE_POLL_MS = 2;

    private final SlotContext ctx;
    private final RangeDescriptor range;
    /** When the former owner stopped taking the range's writes (µs, its wall clock), from its handover; else 0. */
    private volatile long stoppedAt;

    SlotHandover(SlotContext ctx, RangeDescriptor range) {
        this.ctx = ctx;
        this.range = range;
    }

    static long nowMicros() {
        return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
    }

    /**
     * On the new owner: where a ledger of the range ends, if this process's own writer drained it (the range split
     * here, see {@link #endHere}, and the slot writes a ledger the split opened; any other slot recovers it), or if
     * its writer is the source of the migration that cut the range over to this
     * node, as handed over or closed.
     *
     * @param retired whether the slot retired meanwhile (it stops waiting)
     * @return the ledger's last entry; {@code null} when it must be recovered
     */
    CompletableFuture<Long> awaitEnd(LedgerInfo l, boolean preopened, BooleanSupplier retired) {
        Long here = ctx.cutovers() == null || !preopened || !l.writer().equals(ctx.self()) ? null
                : ctx.cutovers().endHere(l.id());
        if (here != null) {
            return CompletableFuture.completedFuture(here);
        }
        MigrationInfo m = ctx.metadata().current().migrationOf(range.id());
        if (m == null || m.phase() != MigrationPhase.CLEANING_UP || !m.target().equals(ctx.self())
                || !l.writer().equals(m.source())) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Long> out = new CompletableFuture<>();
        poll(l, System.nanoTime() + ctx.writer().answerTimeout().toNanos(), retired, out);
        return out;
    }

    /** Only the ledger's own writer's word counts (the handler refuses others once it knows the ledger). */
    private void poll(LedgerInfo l, long deadline, BooleanSupplier retired, CompletableFuture<Long> out) {
        long ledgerId = l.id();
        LedgerInfo now = ctx.metadata().current().ledger(ledgerId);
        LedgerHandover said = ctx.cutovers() == null ? null : ctx.cutovers().handedOver(ledgerId);
        if (said != null && !said.writer().equals(l.writer())) {
            said = null;
        }
        if (said != null) {
            stoppedAt = Math.max(stoppedAt, said.stoppedAtMicros());
        }
        if (now == null || now.state() == LedgerState.CLOSED) {
            out.complete(now == null ? 0L : now.lastEntry());
        } else if (said != null) {
            out.complete(said.lastEntry());
        } else if (System.nanoTime() >= deadline || retired.getAsBoolean()) {
            out.complete(null);
        } else {
            ctx.timer().schedule(CLOSE_POLL_MS, () -> poll(l, deadline, retired, out));
        }
    }

    /**
     * On the new owner: the entries of a ledger its former writer handed over with the ledger's end, if they cover a
     * run of entries to replay: the writer's own acknowledged entries, the same a log node would answer.
     *
     * @return the entries {@code from} to {@code to}, or {@code null} if the handover did not carry them all
     */
    List<LedgerEntry> given(LedgerInfo l, long from, long to) {
        LedgerHandover h = ctx.cutovers() == null ? null : ctx.cutovers().handedOver(l.id());
        if (h == null || !h.writer().equals(l.writer()) || h.tail().isEmpty() || to > h.lastEntry()
                || h.tail().get(0).lsn() > from) {
            return null;
        }
        long first = h.tail().get(0).lsn();
        return h.tail().subList((int) (from - first), (int) (to - first + 1)).stream()
                .map(r -> LedgerEntry.of(l.id(), r)).toList();
    }

    /** On the new owner, once it serves: counts how long the range's writes paused, if a handover said. */
    void served() {
        long at = stoppedAt;
        if (at > 0) {
            ctx.cutovers().paused(nowMicros() - at);
            stoppedAt = 0;
        }
    }

    /**
     * On the new owner, once it serves: a ledger handed over must still be closed in the metadata (its former writer
     * commits that). If it is not after the answer timeout (the writer crashed, or lost the metadata), this node
     * recovers it: fencing changes nothing then, as the writer takes no more entries, and the recovery closes it at
     * the entry it was handed over at.
     */
    void closeLater(long ledgerId, BooleanSupplier retired) {
        ctx.timer().schedule(ctx.writer().answerTimeout().toMillis(), () -> {
            LedgerInfo l = ctx.metadata().current().ledger(ledgerId);
            if (l == null || l.state() == LedgerState.CLOSED || retired.getAsBoolean()) {
                return;
            }
            LOG.info("{}: range {}: ledger {} was handed over but its close did not commit; recovering it",
                    ctx.self(), range.id(), ledgerId);
            new LedgerRecovery(ctx.self(), ctx.metadata(), ctx.peers(), ctx.timer(), ctx.writer().answerTimeout())
                    .recover(ledgerId).whenComplete((r, e) -> {
                        if (e != null) {
                            closeLater(ledgerId, retired);
                        }
                    });
        });
    }

    /**
     * On this node, as its retired slot closes the writer after a split this process asked for, which left the
     * range's halves here and opened their ledgers: once the writer is drained (it takes no more entries, and each
     * one it took is acknowledged), notes where its ledger ends. The halves' slots replay to there and serve without
     * waiting for the close to commit; the entry noted is the one the close commits at, and the one a recovery finds
     * if the close never commits.
     *
     * @param released completed once noted (left alone if the range did not split here); off the writer's thread
     */
    void endHere(LedgerWriter w, CompletableFuture<Void> released) {
        MetaState s = ctx.metadata().current();
        RangeDescriptor now = s.range(range.id());
        long id = w.ledger().id();
        if (ctx.cutovers() == null || now == null || !now.owner().equals(ctx.self()) || now.epoch() != range.epoch()
                || now.generation() == range.generation() || !openedHere(s, id)) {
            return;
        }
        w.drained().thenAccept(last -> ctx.timer().schedule(0, () -> {
            ctx.cutovers().endedHere(id, last);
            released.complete(null);
            closeLater(id, () -> false); // if the writer's close never commits, this process recovers the ledger
        }));
    }

    /**
     * Whether the split opened a ledger for each range now over this one, all owned here, for this process (not the
     * retired writer's own ledger): a half that must open its own could not while the range's ledger is open, so
     * the slots wait for the close then.
     */
    private boolean openedHere(MetaState s, long retiredLedger) {
        return s.ranges().stream().filter(h -> range.contains(h.low()) || h.contains(range.low())).allMatch(h ->
                h.owner().equals(ctx.self()) && s.ledgersOf(h).stream().anyMatch(l -> l.id() != retiredLedger
                        && ctx.cutovers().openedFor(l, h, ctx.self())));
    }

    /**
     * On the former owner, as its retired slot closes the writer: if a migration's cutover took the range to another
     * node, tells that node where the ledger ends once the writer is drained. A failure is only logged: the new owner
     * then waits for the close to commit.
     *
     * @param retiredAt when the slot stopped taking writes (µs, wall clock)
     * @param recent    the writer's last acknowledged entries: those up to the end go with the handover
     */
    void handOver(LedgerWriter w, long retiredAt, RecentEntries recent) {
        MigrationInfo m = ctx.metadata().current().migrationOf(range.id());
        if (m == null || m.phase() != MigrationPhase.CLEANING_UP || !m.source().equals(ctx.self())
                || m.target().equals(ctx.self())) {
            return;
        }
        String to = m.target();
        w.drained().thenAccept(last -> ctx.timer().schedule(0, () -> {
            long id = w.ledger().id();
            LedgerHandover h = new LedgerHandover(id, last, retiredAt, ctx.self(), recent.tail(id, last));
            ctx.peers().handOver(to, h).whenComplete((v, e) -> {
                if (e != null) {
                    LOG.info("{}: range {}: {} was not told that ledger {} ends at entry {} ({}); it waits for the "
                            + "close", ctx.self(), range.id(), to, id, last, LedgerException.unwrap(e).getMessage());
                }
            });
        }));
    }
}
