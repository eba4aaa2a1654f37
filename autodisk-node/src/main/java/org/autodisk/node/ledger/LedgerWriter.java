package org.autodisk.node.ledger;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.autodisk.node.meta.CommandResult;
import org.autodisk.node.meta.LedgerInfo;
import org.autodisk.node.meta.LedgerState;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.Metadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one writer of an open ledger. Entries get dense ids and go to every log node of the last fragment's ensemble;
 * an entry is acknowledged once every one of them holds it and every entry before it, and acknowledged entries are
 * handed to the applier in id order before their futures complete. A log node that fails or does not answer in time
 * is replaced, or dropped while none is spare, by an ensemble change committed in the metadata <em>before</em>
 * anything more is acknowledged (the new fragment starts at the first entry not yet acknowledged, and the pending
 * entries are sent again to its ensemble). When no log node is left, or the ledger was fenced by a new writer, the
 * writer stops: its pending entries fail with {@link LedgerException.Kind#OUTCOME_UNKNOWN} and recovery settles them,
 * except those no log node can have got ({@link EntryReach}), which fail UNAVAILABLE: not written.
 *
 * <p>The writer holds its owner's lease ({@link #leased}, {@link AppendBook}); a new writer fences the ledger and
 * waits out what is left of it, so an owner paused or cut off never answers from its store after the new one served.
 */
public final class LedgerWriter {

    private static final Logger LOG = LoggerFactory.getLogger(LedgerWriter.class);

    /** Unanswered appends per log node; more entries wait for the next append. */
    static final int MAX_APPENDS_IN_FLIGHT = 4;
    /** Most entries in one append. */
    static final int MAX_BATCH = 1000;
    /** An append stops taking entries past about this many bytes. */
    static final long MAX_BATCH_BYTES = 1 << 20;
    private static final int ENTRY_OVERHEAD = 40;

    private record Pending(LedgerEntry entry, CompletableFuture<LedgerEntry> future) {
    }

    private final String self;
    private final Metadata metadata;
    private final LedgerPeers peers;
    private final LedgerTimer timer;
    private final WriterSettings settings;
    private final Supplier<List<String>> logNodesUp;
    private final EntryApplier applier;
    private final TreeMap<Long, Pending> pending = new TreeMap<>();
    private final Map<String, Long> held = new HashMap<>();
    private final Map<String, Long> sent = new HashMap<>();
    private final Set<String> failed = new HashSet<>();
    /** Log nodes replaced since the last acknowledgement: not taken back until an entry is acknowledged again. */
    private final Set<String> replaced = new HashSet<>();
    private final Map<String, Integer> inFlight = new HashMap<>();
    private final AppendBook book;
    private final EntryReach reach = new EntryReach();
    private boolean sweeping;
    private long generation;
    private LedgerInfo ledger;
    private WriterState state = WriterState.OPEN;
    private long nextEntry = 1;
    private long lac;
    private CompletableFuture<LedgerInfo> closing;
    private final CompletableFuture<Long> drained = new CompletableFuture<>();

    /**
     * Creates the writer of a ledger just opened.
     *
     * @param self       this data node, for logs
     * @param ledger     the ledger as opened in the metadata
     * @param metadata   where ensemble changes are committed
     * @param peers      the log nodes
     * @param timer      the clock for answer deadlines
     * @param settings   multiplicity and deadlines
     * @param logNodesUp the log nodes believed reachable, in preference order (replacements come from here)
     * @param applier    takes acknowledged entries in id order (the owner applies them to its store), and says when
     *                   their futures complete
     */
    public LedgerWriter(String self, LedgerInfo ledger, Metadata metadata, LedgerPeers peers, LedgerTimer timer,
            WriterSettings settings, Supplier<List<String>> logNodesUp, EntryApplier applier) {
        this.self = self;
        this.ledger = ledger;
        this.metadata = metadata;
        this.peers = peers;
        this.timer = timer;
        this.settings = settings;
        this.logNodesUp = logNodesUp;
        this.applier = applier;
        this.book = new AppendBook(settings.lease());
        refreshLease();
    }

    /**
     * Adds an entry.
     *
     * @param rangeId the key's range
     * @param epoch   its epoch
     * @param op      PUT or DELETE
     * @param key     the key
     * @param value   the value
     * @return the entry once acknowledged (and applied); fails with {@link LedgerException}: UNAVAILABLE if it was
     *         never sent (not written), OUTCOME_UNKNOWN if it was sent and the writer stopped
     */
    public synchronized CompletableFuture<LedgerEntry> add(int rangeId, long epoch, int op, byte[] key, byte[] value) {
        if (state == WriterState.BROKEN || state == WriterState.FENCED || closing != null) {
            return CompletableFuture.failedFuture(new LedgerException(LedgerException.Kind.UNAVAILABLE,
                    self + ": the writer of " + ledger + " stopped (" + (closing != null ? "closing"
                            : state.name().toLowerCase()) + ")"));
        }
        LedgerEntry entry = new LedgerEntry(ledger.id(), nextEntry++, rangeId, epoch, op, key, value);
        Pending p = new Pending(entry, new CompletableFuture<>());
        pending.put(entry.entryId(), p);
        if (state == WriterState.OPEN) {
            ledger.lastFragment().ensemble().forEach(this::sendPending);
        }
        return p.future();
    }

    /** @return the ledger as this writer knows it (with the fragments it committed) */
    public synchronized LedgerInfo ledger() {
        return ledger;
    }

    /** @return what the writer is doing */
    public synchronized WriterState state() {
        return state;
    }

    /** @return the last acknowledged entry's id, 0 if none */
    public synchronized long lastAcknowledged() {
        return lac;
    }

    /** @return true while entries wait for their acknowledgement */
    public synchronized boolean busy() {
        return !pending.isEmpty() || state == WriterState.CHANGING;
    }

    /**
     * @param now the timer's time now
     * @return true while the writer holds its lease: it is open and every log node of its last fragment confirmed
     *         the ledger unfenced in a request sent less than the lease ago (the owner may answer from its store)
     */
    public boolean leased(long now) {
        return book.leased(now);
    }

    /**
     * @param now        the timer's time now
     * @param renewNanos how old a confirmation may be
     * @return the log nodes of the last fragment a lease renewal asks: their latest confirmation is older
     */
    public synchronized List<String> toRenew(long now, long renewNanos) {
        return state != WriterState.OPEN ? List.of() : book.toRenew(ledger.lastFragment().ensemble(), now, renewNanos);
    }

    /**
     * @param node   the log node asked to renew the lease
     * @param sentAt when it was asked (timer nanos)
     * @param fenced whether it holds the ledger fenced (the writer then stops)
     * @param err    why it did not answer ({@code null} if it did): it is replaced as if an append to it failed
     */
    public synchronized void leaseAnswered(String node, long sentAt, boolean fenced, Throwable err) {
        if (fenced) {
            nodeFailed(node, new LedgerException(LedgerException.Kind.FENCED, "log node " + node + " holds " + ledger
                    + " fenced: a new writer recovers it"));
        } else if (err != null && state == WriterState.OPEN) {
            nodeFailed(node, LedgerPeersSupport.cause(err));
        } else if (err == null) {
            book.confirmed(node, sentAt);
            refreshLease();
        }
    }

    private void refreshLease() {
        book.refresh(state == WriterState.OPEN, ledger.lastFragment().ensemble());
    }

    /**
     * Closes the ledger once every entry added is acknowledged: takes no more entries, then commits the close at the
     * last acknowledged entry. A writer that stops first fails it (recovery then closes the ledger).
     *
     * @return the ledger as closed in the metadata
     */
    public synchronized CompletableFuture<LedgerInfo> close() {
        if (closing == null) {
            closing = new CompletableFuture<>();
            closeIfDrained();
        }
        return closing;
    }

    /** The ledger's last entry, once {@link #close()} found every entry acknowledged and submitted the close. */
    public CompletableFuture<Long> drained() {
        return drained;
    }

    /**
     * Stops the writer as if no log node were left (the owner's store failed to apply an acknowledged entry).
     *
     * @param why for the log and the failures
     */
    public synchronized void abort(String why) {
        stop(WriterState.BROKEN, why);
    }

    private void closeIfDrained() {
        if (closing == null || drained.isDone() || state == WriterState.CHANGING || !pending.isEmpty()) {
            return;
        }
        if (state != WriterState.OPEN) {
            closing.completeExceptionally(new LedgerException(LedgerException.Kind.UNAVAILABLE, self
                    + ": the writer of " + ledger + " stopped (" + state.name().toLowerCase() + ") before it closed"));
            return;
        }
        state = WriterState.CLOSED;
        refreshLease();
        long id = ledger.id();
        drained.complete(lac);
        metadata.submit(new MetaCommand.CloseLedger(id, lac), settings.metadataTimeout()).whenComplete((r, err) -> {
            LedgerInfo now = metadata.current().ledger(id);
            if (now != null && now.state() == LedgerState.CLOSED) {
                LOG.info("{}: closed {}", self, now);
                closing.complete(now);
            } else {
                closing.completeExceptionally(new LedgerException(LedgerException.Kind.UNAVAILABLE, self
                        + ": the close of ledger " + id + " did not commit: " + (err != null
                                ? LedgerPeersSupport.cause(err).getMessage() : r.refusal())));
            }
        });
    }

    /** Brings the ensemble back to the multiplicity when a log node outside it is up again. */
    public synchronized void restore() {
        List<String> ensemble = ledger.lastFragment().ensemble();
        if (state != WriterState.OPEN || ensemble.size() >= settings.multiplicity()) {
            return;
        }
        List<String> next = LedgerPeersSupport.grown(ensemble, Set.of(), logNodesUp.get(), settings.multiplicity());
        if (next.size() > ensemble.size()) {
            changeEnsemble(next, "log node(s) back");
        }
    }

    /**
     * Sends a node the pending entries it was not sent yet, in one append of at most {@link #MAX_BATCH} entries
     * (or about {@link #MAX_BATCH_BYTES}); while {@link #MAX_APPENDS_IN_FLIGHT} appends to it are unanswered, the
     * entries wait and go in the next append when one is answered.
     */
    private void sendPending(String node) {
        long from = Math.max(sent.getOrDefault(node, 0L), lac) + 1;
        if (pending.isEmpty() || from >= nextEntry || inFlight.getOrDefault(node, 0) >= MAX_APPENDS_IN_FLIGHT) {
            return;
        }
        List<LedgerEntry> batch = new ArrayList<>();
        long bytes = 0;
        for (Pending p : pending.tailMap(from, true).values()) {
            if (batch.size() >= MAX_BATCH || bytes >= MAX_BATCH_BYTES) {
                break;
            }
            batch.add(p.entry());
            bytes += p.entry().key().length + p.entry().value().length + ENTRY_OVERHEAD;
        }
        long batchLast = batch.get(batch.size() - 1).entryId();
        sent.put(node, batchLast);
        reach.sent(batchLast);
        inFlight.merge(node, 1, Integer::sum);
        long fragments = ledger.fragments().size();
        long gen = generation;
        long fragmentStart = ledger.lastFragment().firstEntry();
        long seq = book.sent(node, timer.nanoTime());
        armSweep();
        CompletableFuture<Long> answer = peers.append(node, ledger.id(), fragmentStart, false, lac, batch);
        answer.whenComplete((last, err) -> {
            answered(node, fragments, seq, batchLast, last, err);
            sendNext(node, gen);
        });
    }

    /**
     * Answer deadlines without a timer per append: one sweep per answer timeout fails a log node whose oldest
     * unanswered append was already out at the previous sweep (so an append gets one to two timeouts).
     */
    private void armSweep() {
        if (!sweeping) {
            sweeping = true;
            book.mark();
            timer.schedule(settings.answerTimeout().toMillis(), this::sweep);
        }
    }

    private synchronized void sweep() {
        sweeping = false;
        if (state == WriterState.BROKEN || state == WriterState.FENCED) {
            return;
        }
        for (String node : book.overdue()) {
            nodeFailed(node, new LedgerException(LedgerException.Kind.UNAVAILABLE, "log node " + node
                    + " did not answer within " + settings.answerTimeout().toMillis() + " ms"));
        }
        if (book.anyOutstanding()) {
            armSweep();
        }
    }

    /** An append to a node was answered: the next waiting entries may go (if the ensemble did not change since). */
    private synchronized void sendNext(String node, long gen) {
        if (gen == generation) {
            inFlight.merge(node, -1, Integer::sum);
            if (state == WriterState.OPEN && !failed.contains(node)
                    && ledger.lastFragment().ensemble().contains(node)) {
                sendPending(node);
            }
        }
    }

    /** An answer to an append; an error counts only if the append had not timed out and the ensemble is the same. */
    private synchronized void answered(String node, long fragments, long seq, long batchLast, Long last,
            Throwable err) {
        reach.answered(batchLast, EntryReach.notSent(err));
        Long sent = book.answered(node, seq);
        boolean live = sent != null;
        if (err == null) {
            held.merge(node, last, Math::max);
            if (live && ledger.lastFragment().ensemble().contains(node)) {
                book.confirmed(node, sent);
                refreshLease();
            }
            tryAcknowledge();
        } else if (live && fragments == ledger.fragments().size()) {
            nodeFailed(node, LedgerPeersSupport.cause(err));
        }
    }

    private void tryAcknowledge() {
        if (state != WriterState.OPEN) {
            return;
        }
        List<Pending> acked = new ArrayList<>();
        while (!pending.isEmpty() && pending.firstKey() == lac + 1 && heldByAll(lac + 1)) {
            acked.add(pending.pollFirstEntry().getValue());
            lac++;
        }
        if (!acked.isEmpty()) {
            replaced.clear();
            applier.apply(acked.stream().map(Pending::entry).toList(),
                    () -> acked.forEach(p -> p.future().complete(p.entry())));
        }
        closeIfDrained();
    }

    private boolean heldByAll(long entry) {
        for (String node : ledger.fragmentOf(entry).ensemble()) {
            if (held.getOrDefault(node, 0L) < entry || failed.contains(node)) {
                return false;
            }
        }
        return true;
    }

    private void nodeFailed(String node, RuntimeException why) {
        if (why instanceof LedgerException e && e.kind() == LedgerException.Kind.FENCED) {
            stop(WriterState.FENCED, why.getMessage());
            return;
        }
        if (!ledger.lastFragment().ensemble().contains(node) || !failed.add(node)) {
            return;
        }
        LOG.info("{}: {}: log node {} failed ({}); changing the ensemble from entry {}", self, ledger, node,
                why.getMessage(), lac + 1);
        if (state == WriterState.OPEN) {
            List<String> next = replacementEnsemble();
            if (next.isEmpty()) {
                stop(WriterState.BROKEN, "no log node left to hold " + ledger + " (log node " + node + ": "
                        + why.getMessage() + ")");
            } else {
                changeEnsemble(next, "log node " + node + " failed");
            }
        }
    }

    private List<String> replacementEnsemble() {
        List<String> left = new ArrayList<>(ledger.lastFragment().ensemble());
        left.removeAll(failed);
        Set<String> excluded = new HashSet<>(failed);
        excluded.addAll(replaced);
        return LedgerPeersSupport.grown(left, excluded, logNodesUp.get(), settings.multiplicity());
    }

    private void changeEnsemble(List<String> next, String why) {
        state = WriterState.CHANGING;
        refreshLease();
        long first = lac + 1;
        metadata.submit(new MetaCommand.ChangeEnsemble(ledger.id(), ledger.fragments().size(), first, next),
                settings.metadataTimeout()).whenComplete((r, err) -> changed(next, first, r, err, why));
    }

    private synchronized void changed(List<String> next, long first, CommandResult r, Throwable err, String why) {
        if (state != WriterState.CHANGING) {
            return;
        }
        if (err != null || !r.applied()) {
            String problem = err != null ? LedgerPeersSupport.cause(err).getMessage() : r.refusal();
            stop(err != null ? WriterState.BROKEN : WriterState.FENCED, "ensemble change not committed: " + problem);
            return;
        }
        ledger = ledger.withFragment(new LedgerInfo.Fragment(first, next));
        LOG.info("{}: ledger {}: ensemble from entry {} is {} ({})", self, ledger.id(), first, next, why);
        List<String> failedMeanwhile = next.stream().filter(failed::contains).toList();
        replaced.addAll(failed);
        failed.clear();
        state = WriterState.OPEN;
        generation++;
        inFlight.clear();
        book.newEnsemble(next);
        refreshLease();
        for (String node : next) {
            sent.put(node, first - 1);
            sendPending(node);
        }
        failedMeanwhile.forEach(n -> nodeFailed(n, new LedgerException(LedgerException.Kind.UNAVAILABLE,
                "log node " + n + " failed while the ensemble changed")));
        tryAcknowledge();
    }

    private void stop(WriterState why, String message) {
        if (state == WriterState.BROKEN || state == WriterState.FENCED || state == WriterState.CLOSED) {
            return;
        }
        state = why;
        refreshLease();
        int unreached = pending.tailMap(reach.highest(), false).size();
        LOG.warn("{}: writer of {} stops: {}; {} unacknowledged entries are settled by recovery, {} reached no log "
                + "node", self, ledger, message, pending.size() - unreached, unreached);
        List<Pending> unacknowledged = new ArrayList<>(pending.values());
        pending.clear();
        unacknowledged.forEach(p -> p.future().completeExceptionally(reach.failure(self, p.entry(), message)));
        closeIfDrained();
    }
}
