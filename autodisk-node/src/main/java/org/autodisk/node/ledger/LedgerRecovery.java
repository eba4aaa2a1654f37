package org.autodisk.node.ledger;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.autodisk.node.meta.CommandResult;
import org.autodisk.node.meta.LedgerInfo;
import org.autodisk.node.meta.LedgerState;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.Metadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * BookKeeper's ledger recovery, run by a new writer before it writes: freeze the ledger in the metadata (its old
 * writer can no longer change its ensemble), fence it on the log nodes of its last fragment (durably: its old writer
 * can append nothing more, since every entry needs all of them), take the highest entry any of them holds (an
 * acknowledged entry is on all of them, so one answer covers every ack quorum), write that tail back to every one
 * that answered, and close the ledger there. The first close to commit wins; a later one adopts it. Waits, and says
 * so, while no log node of the last fragment answers.
 *
 * <p>It also bounds the old writer's lease (see {@link LedgerWriter#leased}): that lease needs every log node of the
 * last fragment, and each answer to the fence says how long the writer had been quiet there, so the lease ends at
 * most {@code lease bound - quiet} after the answer came. {@link #oldLeaseEnds} is the latest such end over the
 * ledgers of other writers this recovery fenced; a new owner serves only after it.
 */
public final class LedgerRecovery {

    private static final Logger LOG = LoggerFactory.getLogger(LedgerRecovery.class);

    private final String self;
    private final Metadata metadata;
    private final LedgerPeers peers;
    private final LedgerTimer timer;
    private final Duration timeout;
    private final long leaseBoundNanos;
    private Long oldLeaseEnds;

    /**
     * Creates a recovery that does not bound leases.
     *
     * @param self     the recovering node, for logs and the metadata
     * @param metadata the metadata
     * @param peers    the log nodes
     * @param timer    the clock for retries
     * @param timeout  how long each step may take before it is tried again
     */
    public LedgerRecovery(String self, Metadata metadata, LedgerPeers peers, LedgerTimer timer, Duration timeout) {
        this(self, metadata, peers, timer, timeout, Duration.ZERO);
    }

    /**
     * Creates a recovery.
     *
     * @param self       the recovering node, for logs and the metadata
     * @param metadata   the metadata
     * @param peers      the log nodes
     * @param timer      the clock for retries and lease ends
     * @param timeout    how long each step may take before it is tried again
     * @param leaseBound the writers' lease plus the margin for clock drift ({@code ZERO}: no leases)
     */
    public LedgerRecovery(String self, Metadata metadata, LedgerPeers peers, LedgerTimer timer, Duration timeout,
            Duration leaseBound) {
        this.self = self;
        this.metadata = metadata;
        this.peers = peers;
        this.timer = timer;
        this.timeout = timeout;
        this.leaseBoundNanos = leaseBound.toNanos();
    }

    /**
     * Returns when the lease of every other writer whose ledger this recovery fenced has surely run out.
     *
     * @return timer nanos, or {@code null} if it fenced no ledger of another writer
     */
    public synchronized Long oldLeaseEnds() {
        return oldLeaseEnds;
    }

    private synchronized void leaseEnds(long at) {
        oldLeaseEnds = oldLeaseEnds == null || at - oldLeaseEnds > 0 ? Long.valueOf(at) : oldLeaseEnds;
    }

    /**
     * Recovers and closes a ledger.
     *
     * @param ledgerId the ledger
     * @return the ledger as closed (its last entry settled for everyone), or {@code null} if the metadata no longer
     *         lists it (only a closed ledger is deleted: another recovery or its writer closed it, and its owner and
     *         backups hold it)
     */
    public CompletableFuture<LedgerInfo> recover(long ledgerId) {
        LedgerInfo l = metadata.current().ledger(ledgerId);
        if (l == null || l.state() == LedgerState.CLOSED) {
            return CompletableFuture.completedFuture(l);
        }
        return metadata.submit(new MetaCommand.RecoverLedger(ledgerId, self), timeout)
                .thenCompose(r -> afterFreeze(ledgerId, r))
                .exceptionallyCompose(err -> retryLater(ledgerId, err));
    }

    private CompletableFuture<LedgerInfo> retryLater(long ledgerId, Throwable err) {
        LOG.info("{}: recovery of ledger {} waits: {}", self, ledgerId, LedgerPeersSupport.cause(err).getMessage());
        CompletableFuture<LedgerInfo> again = new CompletableFuture<>();
        timer.schedule(timeout.toMillis(), () -> recover(ledgerId).whenComplete((l, e) -> {
            if (e == null) {
                again.complete(l);
            } else {
                again.completeExceptionally(e);
            }
        }));
        return again;
    }

    private CompletableFuture<LedgerInfo> afterFreeze(long ledgerId, CommandResult r) {
        LedgerInfo l = metadata.current().ledger(ledgerId);
        if (!r.applied() || l == null) {
            return closedOrFail(ledgerId, r.refusal());
        }
        return fenceAll(l).thenCompose(lasts -> writeBack(l, lasts))
                .thenCompose(last -> close(l, last));
    }

    private CompletableFuture<LedgerInfo> closedOrFail(long ledgerId, String refusal) {
        LedgerInfo l = metadata.current().ledger(ledgerId);
        if (l == null || l.state() == LedgerState.CLOSED) {
            return CompletableFuture.completedFuture(l);
        }
        return CompletableFuture.failedFuture(new LedgerException(LedgerException.Kind.REFUSED, String.valueOf(
                refusal)));
    }

    /** Fences on every log node of the last fragment; completes with the answers once at least one answered. */
    private CompletableFuture<Map<String, Long>> fenceAll(LedgerInfo l) {
        List<String> ensemble = l.lastFragment().ensemble();
        Map<String, Long> lasts = new TreeMap<>();
        List<CompletableFuture<Void>> all = new ArrayList<>();
        boolean foreign = !l.writer().equals(self);
        for (String node : ensemble) {
            CompletableFuture<Void> one = new CompletableFuture<>();
            timer.schedule(timeout.toMillis(), () -> one.complete(null));
            peers.fence(node, l.id()).whenComplete((fenced, err) -> {
                if (err == null) {
                    if (foreign && leaseBoundNanos > 0) {
                        leaseEnds(timer.nanoTime() + leaseBoundNanos
                                - Math.min(leaseBoundNanos, fenced.quietMillis() * 1_000_000L));
                    }
                    synchronized (lasts) {
                        lasts.put(node, fenced.last());
                    }
                }
                one.complete(null);
            });
            all.add(one);
        }
        return CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).thenCompose(v -> {
            synchronized (lasts) {
                if (lasts.isEmpty()) {
                    return CompletableFuture.failedFuture(new LedgerException(LedgerException.Kind.UNAVAILABLE,
                            "no log node of " + ensemble + " answered the fence of ledger " + l.id()));
                }
                return CompletableFuture.completedFuture(Map.copyOf(lasts));
            }
        });
    }

    /** Copies the tail held by the log node that holds most to every other one that answered; returns its end. */
    private CompletableFuture<Long> writeBack(LedgerInfo l, Map<String, Long> lasts) {
        long first = l.lastFragment().firstEntry();
        long last = Math.max(first - 1, lasts.values().stream().mapToLong(Long::longValue).max().orElse(0));
        long low = Math.max(first - 1, lasts.values().stream().mapToLong(Long::longValue).min().orElse(0));
        if (last <= low) {
            return CompletableFuture.completedFuture(last);
        }
        return new LedgerReader(peers).read(l, low + 1, last).thenCompose(tail -> {
            List<CompletableFuture<Long>> copies = new ArrayList<>();
            for (String node : lasts.keySet()) {
                copies.add(peers.append(node, l.id(), first, true, 0, tail.stream()
                        .filter(e -> e.entryId() > Math.max(first - 1, lasts.get(node))).toList()));
            }
            return CompletableFuture.allOf(copies.toArray(CompletableFuture[]::new)).thenApply(v -> last);
        });
    }

    private CompletableFuture<LedgerInfo> close(LedgerInfo l, long last) {
        return metadata.submit(new MetaCommand.CloseLedger(l.id(), last), timeout).thenCompose(r -> {
            LedgerInfo closed = metadata.current().ledger(l.id());
            if (closed != null && closed.state() == LedgerState.CLOSED) {
                LOG.info("{}: recovered {}", self, closed);
                return CompletableFuture.completedFuture(closed);
            }
            return CompletableFuture.failedFuture(new LedgerException(LedgerException.Kind.REFUSED,
                    "ledger " + l.id() + " did not close: " + r.refusal()));
        });
    }
}
