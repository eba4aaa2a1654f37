package org.autodisk.node.lognode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.autodisk.core.cluster.MetricNames;
import org.autodisk.core.cluster.NodeStatus;
import org.autodisk.node.backup.CatchUp;
import org.autodisk.node.backup.LedgerCatchUp;
import org.autodisk.node.backup.LedgerCopies;
import org.autodisk.node.config.ClusterMember;
import org.autodisk.node.config.NodeConfig;
import org.autodisk.node.config.NodeConfigKeys;
import org.autodisk.node.ledger.LedgerStore;
import org.autodisk.node.ledger.LogNodeLedgers;
import org.autodisk.node.lifecycle.Resources;
import org.autodisk.node.lifecycle.StartupStep;
import org.autodisk.node.ops.Handlers;
import org.autodisk.node.ops.NodeContext;
import org.autodisk.node.ops.NodeRole;
import org.autodisk.node.ops.Operation;
import org.autodisk.node.wal.LogStore;
import org.autodisk.node.wal.SegmentOptions;
import org.autodisk.rules.BacklogReport;

/**
 * The log node: keeps the write-ahead log of its data nodes (LOG_APPEND, LOG_READ) and catches their backup copies
 * up from it.
 */
public final class LogRole implements NodeRole {

    private static final long CATCH_UP_PERIOD_MS = 50;

    private final NodeContext ctx;
    private final LogServices services;
    private final Set<String> streams = ConcurrentHashMap.newKeySet();

    private LogRole(NodeContext ctx, LogServices services) {
        this.ctx = ctx;
        this.services = services;
    }

    /**
     * Opens (and recovers) the log store: the first step of a log node, before its network.
     *
     * @param r      where it is registered for release
     * @param config the node's configuration
     * @param given  a log store to use instead of the configured one, or {@code null}
     * @return the open log store
     */
    public static LogStore openLog(Resources r, NodeConfig config, LogStore given) {
        return r.open(StartupStep.LOG_STORE, () -> given != null ? given : open(config), LogStore::close);
    }

    /**
     * Opens (and replays) the journal of ledgers, under {@code <data dir>/journal}; in memory with the memory engine.
     *
     * @param r      where it is registered for release
     * @param config the node's configuration
     * @return the open ledger store
     */
    public static LedgerStore openLedgers(Resources r, NodeConfig config) {
        return r.open(StartupStep.LEDGER_JOURNAL, () -> openJournal(config), LedgerStore::close);
    }

    private static LedgerStore openJournal(NodeConfig config) {
        if ("memory".equals(config.get(NodeConfigKeys.STORE_ENGINE))) {
            return LedgerStore.inMemory(config.nodeId());
        }
        try {
            return LedgerStore.journal(config.nodeId(), config.dataDir().resolve("journal"), segmentOptions(config));
        } catch (IOException e) {
            throw new UncheckedIOException(config.nodeId() + ": cannot open the journal of ledgers in "
                    + config.dataDir().resolve("journal") + ": " + e.getMessage(), e);
        }
    }

    private static SegmentOptions segmentOptions(NodeConfig config) {
        return SegmentOptions.defaults().withSegmentBytes(config.get(NodeConfigKeys.WAL_SEGMENT_BYTES))
                .withPreallocateBytes(config.get(NodeConfigKeys.WAL_PREALLOCATE_BYTES));
    }

    private static LogStore open(NodeConfig config) {
        if ("memory".equals(config.get(NodeConfigKeys.STORE_ENGINE))) {
            return LogStore.inMemory();
        }
        return LogStore.segments(config.dataDir().resolve("wal"), config.nodeId(), segmentOptions(config));
    }

    /**
     * Builds the role on its open log store.
     *
     * @param r      where what it opens is registered for release
     * @param config the node's configuration
     * @param ctx    what every node has
     * @param log    the log store from {@link #openLog}
     * @param ledgers the journal of ledgers from {@link #openLedgers}
     * @return the role
     */
    public static LogRole open(Resources r, NodeConfig config, NodeContext ctx, LogStore log, LedgerStore ledgers) {
        CatchUp catchUp = r.open(StartupStep.CATCH_UP, () -> new CatchUp(ctx.nodeId(), log, ctx.peers(),
                ctx.metadata()::current, ctx.logNodesOf(), (stream, backups, lag, idleMs) -> ctx.rules()
                        .catchUpRequested(new BacklogReport(stream, backups, lag, idleMs)), ctx.metrics()),
                CatchUp::close);
        LogNodeLedgers held = new LogNodeLedgers(ledgers);
        LedgerCatchUp ledgerCatchUp = r.open(StartupStep.LEDGER_CATCH_UP, () -> new LedgerCatchUp(ctx.nodeId(), held,
                new LedgerCopies(ctx.nodeId(), ctx.peers(), held), ctx.metadata()::current,
                (range, backups, lag, idleMs) -> ctx.rules().catchUpRequested(new BacklogReport(range, backups, lag,
                        idleMs)), ctx.metrics()), LedgerCatchUp::close);
        LogRole role = new LogRole(ctx, new LogServices(log, catchUp, held, ledgerCatchUp));
        role.registerMetrics();
        return role;
    }

    private void registerMetrics() {
        LogStore log = services.log();
        ctx.metrics().functionCounter(MetricNames.LOG_RECORDS, "records made durable", log,
                l -> l.stats().records());
        ctx.metrics().functionCounter(MetricNames.LOG_FSYNCS, "fsyncs of the log", log, l -> l.stats().fsyncs());
        ctx.metrics().gauge(MetricNames.LOG_RECORDS_PER_FSYNC, "records per fsync since start",
                () -> log.stats().recordsPerFsync());
        log.streams().forEach(this::streamSeen);
        LedgerStore ledgers = services.ledgers().store();
        ctx.metrics().functionCounter(MetricNames.LEDGER_ENTRIES, "ledger entries made durable in the journal",
                ledgers, l -> l.stats().entries());
        ctx.metrics().functionCounter(MetricNames.LEDGER_SYNCS, "fsyncs of the journal of ledgers", ledgers,
                l -> l.stats().syncs());
        ctx.metrics().gauge(MetricNames.LEDGER_ENTRIES_PER_SYNC, "ledger entries per journal fsync since start",
                () -> ledgers.stats().entriesPerSync());
    }

    private void streamSeen(String stream) {
        if (streams.add(stream)) {
            ctx.metrics().streamGauge(MetricNames.LOG_LAST_LSN, "the last LSN of the stream held here",
                    stream, () -> services.log().lastLsn(stream));
        }
    }

    /**
     * Returns the log node's services.
     *
     * @return log store and catch-up
     */
    public LogServices services() {
        return services;
    }

    @Override
    public ClusterMember.Role role() {
        return ClusterMember.Role.LOG;
    }

    @Override
    public void register(Handlers handlers) {
        handlers.serve(Operation.LOG_APPEND, new LogAppendHandler(ctx.nodeId(), services, this::streamSeen),
                        Handlers.Mode.INLINE)
                .serve(Operation.LOG_READ, new LogReadHandler(services.log(), ctx.maxResponseBytes()))
                .serve(Operation.LEDGER_APPEND, new LedgerAppendHandler(ctx.nodeId(), services.ledgers()),
                        Handlers.Mode.INLINE)
                .serve(Operation.LEDGER_FENCE, new LedgerFenceHandler(ctx.nodeId(), services.ledgers()),
                        Handlers.Mode.INLINE)
                .serve(Operation.LEDGER_READ, new LedgerReadHandler(services.ledgers(), ctx.maxResponseBytes()));
    }

    @Override
    public long streamCount() {
        return 0;
    }

    @Override
    public String describe() {
        return "keeps the log of " + (services.log().streams().isEmpty() ? "no data node yet"
                : String.join(", ", services.log().streams()));
    }

    @Override
    public void start(Supplier<NodeStatus> self) {
        services.catchUp().start(CATCH_UP_PERIOD_MS);
        services.ledgerCatchUp().start(CATCH_UP_PERIOD_MS);
    }
}
