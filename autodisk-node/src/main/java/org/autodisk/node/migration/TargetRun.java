package org.autodisk.node.migration;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.autodisk.core.Keys;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.ledger.LedgerEntry;
import org.autodisk.node.ledger.LedgerReader;
import org.autodisk.node.meta.CommandResult;
import org.autodisk.node.meta.LedgerInfo;
import org.autodisk.node.meta.LedgerState;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.MigrationInfo;
import org.autodisk.node.meta.MigrationPhase;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.store.LocalStore;
import org.autodisk.node.wire.LedgerApplyRequest;
import org.autodisk.node.wire.MigrationChunk;
import org.autodisk.node.wire.MigrationReadRequest;
import org.autodisk.node.wire.PeerOp;
import org.autodisk.node.wire.PeerResponses;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One migration on its target, on its own thread: copies the source's snapshot of the range chunk by chunk
 * (throttled, recording progress and the resume key once what it copied is durable), catches up from the range's
 * ledgers until a round has little left, then proposes the cutover. Stops between chunks when the migration is
 * paused, aborted or stopped; the driver starts it again, and it resumes from the metadata's record.
 */
final class TargetRun implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(TargetRun.class);
    private static final long RECORD_BYTES = 32L << 20;
    private static final long RECORD_NANOS = TimeUnit.SECONDS.toNanos(2);
    private static final int MAX_ROUNDS = 50;
    private static final int PAGE = 1000;

    private final long id;
    private final MigrationContext mc;
    private final Throttle throttle = new Throttle();
    private final HostCopies hostCopies;
    private volatile boolean stopped;
    /** The source's answer the run waits for, cancelled by {@link #stop}. */
    private volatile CompletableFuture<Frame> waiting = CompletableFuture.completedFuture(null);
    /** The store the copy goes to: this node's own for a move, its backup copy for a backup fill. */
    private LocalStore into;
    /** The copy run this run claimed: its progress records carry it. */
    private long copyRun;

    TargetRun(long id, MigrationContext mc, HostCopies hostCopies) {
        this.id = id;
        this.mc = mc;
        this.hostCopies = hostCopies;
    }

    /** Stops the run: a wait for the source ends at once, and nothing more is written. */
    void stop() {
        stopped = true;
        waiting.cancel(false);
    }

    @Override
    public void run() {
        try {
            MigrationInfo m = live();
            if (m == null) {
                return;
            }
            into = mc.into(m);
            if (m.phase() == MigrationPhase.COPYING) {
                m = HostCopies.BY_HOST.equals(m.startedBy()) ? awaitHost(m) : copy(m);
            }
            if (m != null && m.phase() == MigrationPhase.CATCHING_UP) {
                catchUpAndCutOver();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | ExecutionException | TimeoutException e) {
            LOG.warn("{}: migration {} stopped ({}); it goes on from its last record", mc.self(), id,
                    String.valueOf(e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e));
            throw new IllegalStateException(e);
        }
    }

    /** The migration if this run should go on with it. */
    private MigrationInfo live() {
        MigrationInfo m = mc.metadata().current().migration(id);
        return stopped || m == null || m.paused() || !m.target().equals(mc.self()) ? null : m;
    }

    private MigrationInfo copy(MigrationInfo start) throws InterruptedException, ExecutionException,
            TimeoutException {
        claim(start);
        RangeDescriptor r = mc.metadata().current().range(start.rangeId());
        if (!start.backup()) {
            awaitNoWriterOver(r);
        }
        boolean fresh = start.resumeAfter().isEmpty();
        if (fresh) {
            long gone = mc.clear(start, r);
            LOG.info("{}: migration {}: copying range {} {} from {} (dropped {} streams of an earlier copy)",
                    mc.self(), id, r.id(), r.span(), start.source(), gone);
        }
        byte[] from = fresh ? r.low() : successor(HexFormat.of().parseHex(start.resumeAfter()));
        try (CopyLoader loader = new CopyLoader(into, mc.settings().bulkLoad())) {
            return copyChunks(start, loader, fresh, from);
        }
    }

    /**
     * Waits until this node has no writer of the range: after a restart it follows the metadata's history, and a slot
     * of an owner it was may still replay old entries into the span the copy writes. It polls (the wait ends with a
     * metadata apply or a slot's start ending, neither of which this thread can wait on), bounded: the run tries later.
     */
    private void awaitNoWriterOver(RangeDescriptor r) throws InterruptedException {
        long end = System.nanoTime() + mc.settings().metadataTimeout().toNanos();
        while (mc.wal().hasWriterOver(r)) {
            if (System.nanoTime() - end > 0) {
                throw new IllegalStateException("this node still has a writer of range " + r.id() + " " + r.span());
            }
            Thread.sleep(20);
        }
    }

    /**
     * Takes the copy over for this run before anything is written (the next copy run, at the resume key this node
     * read): committed, it proves the read was current, and no record of an earlier run (one still in flight when
     * that run failed) can apply after it. A view that lags, as when the metadata leader died, is refused instead of
     * deleting a copy the metadata says is held, or resuming past keys it dropped.
     */
    private void claim(MigrationInfo read) throws InterruptedException, ExecutionException, TimeoutException {
        submit(new MetaCommand.ClaimCopy(id, read.copyRun() + 1, read.resumeAfter()));
        copyRun = read.copyRun() + 1;
    }

    private MigrationInfo copyChunks(MigrationInfo start, CopyLoader loader, boolean fresh, byte[] first)
            throws InterruptedException, ExecutionException, TimeoutException {
        long keys = start.keysCopied();
        long bytes = start.bytesCopied();
        long recordedBytes = bytes;
        long recordedAt = System.nanoTime();
        String last = start.resumeAfter();
        byte[] from = first;
        CompletableFuture<Void> recording = CompletableFuture.completedFuture(null);
        CompletableFuture<Frame> next = request(start, from, true);
        boolean firstChunk = true;
        for (MigrationInfo m = start; m != null && m.phase() == MigrationPhase.COPYING; m = live()) {
            MigrationChunk c = chunk(m, next, from);
            String behind = fresh && firstChunk ? CopyLoader.behind(into, c.positions()) : null;
            if (behind != null) {
                throw new IllegalStateException("migration " + id + ": " + behind + "; the copy starts again");
            }
            if (c.next() != null) { // asked only now: the source's snapshot exists once the first chunk came
                next = request(m, c.next(), false);
            }
            long t = System.nanoTime();
            loader.load(c, fresh && firstChunk ? c.positions() : Map.of());
            firstChunk = false;
            mc.times().add(MigrationTimes.Part.STORE, t);
            keys += c.streams().size();
            bytes += c.bytes();
            last = c.streams().isEmpty() ? last
                    : HexFormat.of().formatHex(c.streams().get(c.streams().size() - 1).key());
            // decided once: a record that ends between two looks would otherwise name keys not yet settled
            boolean recordNow = (bytes - recordedBytes >= RECORD_BYTES
                    || System.nanoTime() - recordedAt >= RECORD_NANOS) && recording.isDone();
            if (c.next() == null || recordNow) {
                long settling = System.nanoTime();
                loader.settle();
                mc.times().add(MigrationTimes.Part.STORE, settling);
            }
            if (c.next() == null) {
                recording.exceptionally(e -> null).get(mc.settings().metadataTimeout().toMillis() * 3,
                        TimeUnit.MILLISECONDS);
                return record(m, MigrationPhase.CATCHING_UP, keys, bytes, last, true);
            }
            from = c.next();
            if (recordNow) {
                recording = recordAside(m, keys, bytes, last);
                recordedBytes = bytes;
                recordedAt = System.nanoTime();
            }
            long paced = System.nanoTime();
            throttle.pace(c.bytes(), m.rateBytes() == MigrationInfo.DEFAULT_RATE ? mc.settings().rateBytes()
                    : m.rateBytes(), () -> stopped);
            mc.times().add(MigrationTimes.Part.THROTTLE, paced);
        }
        return null;
    }

    /**
     * A host-driven copy: takes the range's ledger positions (with one stream) from the source before the host
     * writes anything, records them durably, then waits while the host writes the streams (MIGRATION_WRITE) until
     * it says it is done. A target that restarted after the positions were taken cannot tell which of the host's
     * writes it lost, so it aborts the migration; the host starts over.
     */
    private MigrationInfo awaitHost(MigrationInfo start) throws InterruptedException, ExecutionException,
            TimeoutException {
        MigrationInfo m = start;
        if (!hostCopies.ready(id)) {
            if (!start.resumeAfter().isEmpty()) {
                submit(new MetaCommand.EndMigration(id, true, "target " + mc.self() + " restarted during a "
                        + "host-driven copy and cannot tell which streams it lost; the host must start over"));
                return null;
            }
            claim(start);
            RangeDescriptor r = mc.metadata().current().range(start.rangeId());
            into.deleteRange(r.low(), r.high());
            MigrationChunk c = chunk(start, mc.peers().send(start.source(), PeerOp.MIGRATION_READ.request(
                    new MigrationReadRequest(id, r.low(), 1, true).encode())), r.low());
            into.ingest(c.streams(), c.positions());
            String last = c.streams().isEmpty() ? "" : HexFormat.of().formatHex(c.streams().get(0).key());
            m = record(m, MigrationPhase.COPYING, c.streams().size(), c.bytes(), last, false);
            hostCopies.markReady(id);
            LOG.info("{}: migration {}: ready for the host's copy of range {} {}", mc.self(), id, r.id(), r.span());
        }
        while (m != null && m.phase() == MigrationPhase.COPYING) {
            awaitNextVersion();
            m = live();
        }
        return m;
    }

    /**
     * Waits until the metadata changes (the host's last write moves the migration on; a pause, an abort or a stop
     * ends the wait too), at most {@link HostCopies#WAIT}, so that a stopped run notices.
     */
    private void awaitNextVersion() throws InterruptedException {
        try {
            mc.metadata().awaitVersion(mc.metadata().current().version() + 1, HostCopies.WAIT).get();
        } catch (ExecutionException e) {
            // no change within the wait: look again
        }
    }

    /**
     * Records progress on a thread of its own while the copy goes on: the flush it waits for covers every chunk
     * written before it began, so the key it records is durable. A failure is logged; the next record tries again.
     */
    private CompletableFuture<Void> recordAside(MigrationInfo m, long keys, long bytes, String last) {
        return CompletableFuture.runAsync(() -> {
            try {
                record(m, MigrationPhase.COPYING, keys, bytes, last, false);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException | RuntimeException e) {
                LOG.info("{}: migration {}: progress not recorded ({}); the next record tries again", mc.self(), id,
                        e.toString());
            }
        }, task -> Thread.ofVirtual().name(mc.self() + "-migration-" + id + "-record").start(task));
    }

    private static byte[] successor(byte[] key) {
        return Arrays.copyOf(key, key.length + 1);
    }

    /**
     * Asks the source for the chunk from a key; the answer is read by {@link #chunk}, so the next one is asked for
     * while the current one is written.
     */
    private CompletableFuture<Frame> request(MigrationInfo m, byte[] from, boolean fresh) {
        return mc.peers().send(m.source(), PeerOp.MIGRATION_READ.request(new MigrationReadRequest(id, from,
                mc.settings().chunkBytes(), fresh).encode()));
    }

    private MigrationChunk chunk(MigrationInfo m, CompletableFuture<Frame> answer, byte[] from)
            throws InterruptedException, ExecutionException, TimeoutException {
        long t = System.nanoTime();
        waiting = answer;
        if (stopped) {
            throw new IllegalStateException("migration " + id + " stopped");
        }
        Frame resp = answer.get(timeout(), TimeUnit.MILLISECONDS);
        if (Responses.status(resp.body()) != Status.OK) {
            throw new IllegalStateException("source " + m.source() + " did not send the chunk from key "
                    + Keys.render(from) + ": " + Responses.errorMessage(resp.body()));
        }
        MigrationChunk c = MigrationChunk.decode(resp.body());
        mc.times().add(MigrationTimes.Part.SOURCE_WAIT, t);
        return c;
    }

    private long timeout() {
        return mc.settings().answerTimeout().toMillis();
    }

    /**
     * Makes the copy durable, then records how far it is (and the next phase); {@code onPath} counts the time in
     * the breakdown (a record made beside the copy does not hold it).
     */
    private MigrationInfo record(MigrationInfo m, MigrationPhase next, long keys, long bytes, String last,
            boolean onPath) throws InterruptedException, ExecutionException, TimeoutException {
        long t = System.nanoTime();
        into.makeDurable();
        if (onPath) {
            mc.times().add(MigrationTimes.Part.FLUSH, t);
        }
        long committing = System.nanoTime();
        CommandResult res = submit(new MetaCommand.MigrationProgress(id, MigrationPhase.COPYING, next, keys, bytes,
                last, copyRun));
        if (onPath) {
            mc.times().add(MigrationTimes.Part.COMMIT, committing);
        }
        if (next == MigrationPhase.CATCHING_UP) {
            LOG.info("{}: migration {}: copied {} streams, {} bytes of range {}; catching up from its ledgers",
                    mc.self(), id, keys, bytes, m.rangeId());
        }
        return mc.metadata().awaitVersion(res.version(), mc.settings().metadataTimeout())
                .get(timeout(), TimeUnit.MILLISECONDS).migration(id);
    }

    private CommandResult submit(MetaCommand command) throws InterruptedException, ExecutionException,
            TimeoutException {
        CommandResult res = mc.metadata().submit(command, mc.settings().metadataTimeout())
                .get(mc.settings().metadataTimeout().toMillis() * 2, TimeUnit.MILLISECONDS);
        if (!res.applied()) {
            throw new IllegalStateException(res.refusal());
        }
        return res;
    }

    private void catchUpAndCutOver() throws InterruptedException, ExecutionException, TimeoutException {
        long total = 0;
        long t = System.nanoTime();
        for (int round = 1; round <= MAX_ROUNDS; round++) {
            if (live() == null) {
                return;
            }
            long n = catchUpRound();
            total += n;
            if (n <= mc.settings().cutoverLag()) {
                break;
            }
        }
        mc.times().add(MigrationTimes.Part.CATCH_UP, t);
        MigrationInfo m = live();
        if (m == null || m.phase() != MigrationPhase.CATCHING_UP) {
            return;
        }
        long flushing = System.nanoTime();
        into.makeDurable();
        mc.times().add(MigrationTimes.Part.FLUSH, flushing);
        RangeDescriptor r = mc.metadata().current().range(m.rangeId());
        if (m.backup()) {
            submit(new MetaCommand.AddBackup(id));
            LOG.info("{}: migration {}: caught up {} ledger entries; this node is the backup of range {} {} from now "
                    + "on", mc.self(), id, total, r.id(), r.span());
            return;
        }
        List<String> backups = r.backups().stream().filter(b -> !b.equals(mc.self())).toList();
        List<String> ensemble = mc.wal().reserveCutoverLedger(r.id(), r.epoch() + 1);
        long committing = System.nanoTime();
        CommandResult cut;
        try {
            cut = submit(new MetaCommand.CutOver(id, backups, ensemble));
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            mc.wal().releaseCutoverLedger(r.id(), r.epoch() + 1);
            throw e;
        }
        mc.times().add(MigrationTimes.Part.COMMIT, committing);
        awaitServing(r, cut.version());
        dropBackupCopy(r);
        LOG.info("{}: migration {}: caught up {} ledger entries; cut over: range {} is owned here at epoch {}",
                mc.self(), id, total, r.id(), r.epoch() + 1);
    }

    /**
     * The owner of a range it backed up drops its backup copy of it (the range has no backup now until the rules
     * fill one); a crash before leaves only stale keys a later fill deletes first.
     */
    private void dropBackupCopy(RangeDescriptor r) {
        if (r.backups().contains(mc.self())) {
            LocalStore copy = mc.backups().copy();
            long n = copy.deleteRange(r.low(), r.high());
            copy.makeDurable();
            LOG.info("{}: migration {}: this node owns range {} it backed up: dropped the {} streams of its backup "
                    + "copy; the range has no backup until one is filled", mc.self(), id, r.id(), n);
        }
    }

    /** Waits (for the breakdown only) until this node serves the range it cut over to. */
    private void awaitServing(RangeDescriptor r, long version) {
        long t = System.nanoTime();
        try {
            mc.metadata().awaitVersion(version, mc.settings().metadataTimeout()).thenCompose(s -> mc.wal()
                    .ready(r.id(), r.low())).get(timeout(), TimeUnit.MILLISECONDS);
            mc.times().add(MigrationTimes.Part.SERVE, t);
            mc.times().cutOver();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            LOG.debug("{}: migration {}: range {} does not serve here yet ({})", mc.self(), id, r.id(), e.toString());
        }
    }

    /** Applies what the range's ledgers hold past this store; returns how many entries that was. */
    private long catchUpRound() throws InterruptedException, ExecutionException, TimeoutException {
        MetaState s = mc.metadata().current();
        MigrationInfo m = s.migration(id);
        RangeDescriptor r = s.range(m.rangeId());
        List<LedgerInfo> ledgers = new ArrayList<>(s.ledgersOf(r));
        ledgers.sort(Comparator.comparingLong(LedgerInfo::id));
        long n = 0;
        for (LedgerInfo l : ledgers) {
            boolean closed = l.state() == LedgerState.CLOSED;
            long to = closed ? l.lastEntry() : appliedAt(l.writer(), l.id());
            for (long from = into.appliedEntry(l.id()) + 1; from <= to && live() != null; ) {
                List<LedgerEntry> page = new LedgerReader(mc.ledgerPeers()).read(l, from, Math.min(to,
                        from + PAGE - 1)).get(timeout(), TimeUnit.MILLISECONDS);
                into.applyLedger(l.id(), page.stream().filter(e -> r.contains(e.key()))
                        .map(LedgerEntry::toRecord).toList());
                n += page.size();
                from += page.size();
            }
            if (!closed) {
                break;
            }
        }
        return n;
    }

    /** How far a data node's own store applied a ledger (its writer applies only what is acknowledged). */
    private long appliedAt(String node, long ledger) throws InterruptedException, ExecutionException,
            TimeoutException {
        Frame resp = mc.peers().send(node, PeerOp.LEDGER_APPLY.request(LedgerApplyRequest.question(ledger, true)
                .encode())).get(timeout(), TimeUnit.MILLISECONDS);
        if (Responses.status(resp.body()) != Status.OK) {
            throw new IllegalStateException(node + " did not say how far it applied ledger " + ledger + ": "
                    + Responses.errorMessage(resp.body()));
        }
        return PeerResponses.parseHeld(resp.body())[0];
    }
}
