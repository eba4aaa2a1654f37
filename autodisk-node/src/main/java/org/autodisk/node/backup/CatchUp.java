package org.autodisk.node.backup;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.autodisk.node.wire.BackupApplyRequest;
import org.autodisk.core.cluster.MetricNames;
import org.autodisk.core.protocol.Frame;
import org.autodisk.node.wire.LogBatch;
import org.autodisk.node.wire.LogRecord;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.metrics.NodeMetrics;
import org.autodisk.node.peer.PeerChannel;
import org.autodisk.node.wal.LogStore;
import org.autodisk.node.wire.PeerOp;
import org.autodisk.node.wire.PeerResponses;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The log node's catch-up (seed 004, Rule_5): applies each data node's log to the backup copies of its ranges,
 * asynchronously, when the rules ask for it (catch-up.drl: the un-applied log passes a threshold, or the log
 * node is idle). Every period each stream's backlog is put to the {@link CatchUpPolicy}. The first log node of a
 * data node that answers does it: a later one asks the ones before it about once a second and takes over while
 * none of them answers. Log segments are truncated below what the owner and the backups hold durably (their
 * last flush when RocksDB's own WAL is off), on every log node (one that does not catch up asks the backups how
 * far they are). A backup that answers a page with a lower applied LSN than expected (it lost its unflushed part)
 * is resent the log from there.
 */
public final class CatchUp implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CatchUp.class);
    private static final int PAGE = 10_000;
    private static final long PROBE_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** Catch-up pages stay far below the frame limit (a single larger record still goes alone). */
    private static final long PAGE_BYTES = 1 << 20;

    private final String selfId;
    private final LogStore log;
    private final PeerChannel peers;
    private final Supplier<MetaState> map;
    private final Function<String, List<String>> logNodesOf;
    private final CatchUpPolicy policy;
    private final NodeMetrics metrics;
    private final Map<String, Long> progress = new ConcurrentHashMap<>();
    private final Map<String, Long> backupsDurable = new ConcurrentHashMap<>();
    private final Map<String, Long> ownerDurable = new ConcurrentHashMap<>();
    private final Map<String, Long> lastProbe = new ConcurrentHashMap<>();
    private final Map<String, Boolean> standingIn = new ConcurrentHashMap<>();
    private final PeerLiveness liveness;
    private final ScheduledExecutorService timer;
    private volatile long lastAppend = System.nanoTime();

    /**
     * Creates the catch-up; {@link #start} schedules it.
     *
     * @param selfId     this log node
     * @param log        its log store
     * @param peers      the peer channel
     * @param map        the committed metadata (owners and backups of the ranges)
     * @param logNodesOf the log nodes of a data node
     * @param policy     decides when a stream's backups are caught up (the rules)
     * @param metrics    where the backup lag of each stream it catches up is registered
     */
    public CatchUp(String selfId, LogStore log, PeerChannel peers, Supplier<MetaState> map,
            Function<String, List<String>> logNodesOf, CatchUpPolicy policy, NodeMetrics metrics) {
        this.selfId = selfId;
        this.log = log;
        this.peers = peers;
        this.map = map;
        this.logNodesOf = logNodesOf;
        this.policy = policy;
        this.metrics = metrics;
        this.liveness = new PeerLiveness(peers, PROBE_INTERVAL_NANOS);
        this.timer = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().name(selfId + "-catch-up")
                .daemon().factory());
    }

    /**
     * Runs the catch-up every {@code periodMs}.
     *
     * @param periodMs the period
     */
    public void start(long periodMs) {
        timer.scheduleWithFixedDelay(this::tick, periodMs, periodMs, TimeUnit.MILLISECONDS);
    }

    /**
     * Notes an append from a data node.
     *
     * @param stream  the data node
     * @param durable the LSN up to which the data node's store holds its changes durably without the log (its
     *                applied LSN, or that of its last flush when RocksDB's own WAL is off)
     */
    public void appended(String stream, long durable) {
        lastAppend = System.nanoTime();
        ownerDurable.merge(stream, durable, Math::max);
    }

    void tick() {
        for (String stream : log.streams()) {
            try {
                catchUp(stream);
            } catch (RuntimeException e) {
                LOG.debug("{}: catch-up of {} deferred: {}", selfId, stream, e.getMessage());
            }
        }
    }

    private void catchUp(String stream) {
        List<String> mine = logNodesOf.apply(stream);
        Set<String> backups = backupsOf(stream);
        if (!mine.contains(selfId) || backups.isEmpty()) {
            return;
        }
        if (!catchesUp(stream, mine)) {
            truncateAsSecond(stream, backups);
            return;
        }
        long through = progress.computeIfAbsent(stream, s -> firstProbe(s, backups));
        long lag = log.lastLsn(stream) - through;
        long idleMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastAppend);
        if (lag > 0 && policy.catchUpNow(stream, String.join(",", backups), lag, idleMs)) {
            long target = log.lastLsn(stream);
            while (through < target) {
                long before = through;
                through = copyPage(stream, through, backups);
                if (through <= before) {
                    break;
                }
            }
        }
        truncate(stream, backupsDurable.getOrDefault(stream, 0L));
    }

    private long firstProbe(String stream, Set<String> backups) {
        long through = probe(stream, backups)[0];
        metrics.streamGauge(MetricNames.BACKUP_LAG, "records the stream's backup copy lacks",
                stream, () -> lag(stream));
        return through;
    }

    private long lag(String stream) {
        Long through = progress.get(stream);
        return through == null ? 0 : Math.max(0, log.lastLsn(stream) - through);
    }

    /** True if this log node is the first of the stream's log nodes that answers. */
    private boolean catchesUp(String stream, List<String> mine) {
        List<String> before = mine.subList(0, mine.indexOf(selfId));
        if (before.isEmpty()) {
            return true;
        }
        boolean standIn = before.stream().noneMatch(liveness::answers);
        Boolean was = standingIn.put(stream, standIn);
        if (standIn && !Boolean.TRUE.equals(was)) {
            LOG.warn("{}: log node(s) {} do not answer; catching up the backups of {} in their place", selfId,
                    before, stream);
            progress.remove(stream);
        } else if (!standIn && Boolean.TRUE.equals(was)) {
            LOG.info("{}: {} answers again and catches up the backups of {} again", selfId, before, stream);
            progress.remove(stream);
        }
        return standIn;
    }

    /** Drops the log below what the owner and its backups hold durably; never what either may still need. */
    private void truncate(String stream, long backupsThrough) {
        long keep = Math.min(backupsThrough, ownerDurable.getOrDefault(stream, 0L));
        if (keep > 0) {
            log.truncateBelow(stream, keep + 1);
        }
    }

    /**
     * On the second log node of a stream (which does not catch up), asks the backups how far they are about
     * once a second and truncates as the first log node does, so its segments do not grow for ever.
     */
    private void truncateAsSecond(String stream, Set<String> backups) {
        long now = System.nanoTime();
        Long last = lastProbe.get(stream);
        if (last != null && now - last < PROBE_INTERVAL_NANOS) {
            return;
        }
        lastProbe.put(stream, now);
        truncate(stream, probe(stream, backups)[1]);
    }

    private Set<String> backupsOf(String stream) {
        Set<String> out = new TreeSet<>();
        for (RangeDescriptor r : map.get().ranges()) {
            if (r.owner().equals(stream) && r.backup() != null) {
                out.add(r.backup());
            }
        }
        return out;
    }

    /** Asks the backups how far they are: the lowest applied and the lowest durable LSN among them. */
    private long[] probe(String stream, Set<String> backups) {
        long[] min = {Long.MAX_VALUE, Long.MAX_VALUE};
        for (String b : backups) {
            lower(min, send(b, new BackupApplyRequest(0, new LogBatch(stream, List.of(), 0))));
        }
        backupsDurable.put(stream, min[1]);
        return min;
    }

    private static void lower(long[] min, long[] answer) {
        min[0] = Math.min(min[0], answer[0]);
        min[1] = Math.min(min[1], answer[1]);
    }

    private long copyPage(String stream, long through, Set<String> backups) {
        List<LogRecord> page = log.read(stream, through + 1, PAGE, PAGE_BYTES);
        if (page.isEmpty()) {
            return log.lastLsn(stream);
        }
        long end = page.get(page.size() - 1).lsn();
        long[] min = {Long.MAX_VALUE, Long.MAX_VALUE};
        MetaState m = map.get();
        for (String b : backups) {
            List<LogRecord> subset = page.stream().filter(r -> m.range(r.rangeId()) != null
                    && b.equals(m.range(r.rangeId()).backup())).toList();
            lower(min, send(b, new BackupApplyRequest(through + 1, new LogBatch(stream, subset, end))));
        }
        progress.put(stream, min[0]);
        backupsDurable.put(stream, min[1]);
        return min[0];
    }

    /** Sends a page (or a probe) to a backup; returns the LSNs it is applied and durable through. */
    private long[] send(String backup, BackupApplyRequest request) {
        Frame resp = peers.send(backup, PeerOp.BACKUP_APPLY.request(request.encode())).join();
        if (Responses.status(resp.body()) != Status.OK) {
            throw new IllegalStateException(backup + ": " + Responses.errorMessage(resp.body()));
        }
        return PeerResponses.parseLsnPair(resp.body());
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
