package org.autodisk.node.lognode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.Supplier;
import org.autodisk.core.cluster.MetricNames;
import org.autodisk.core.cluster.NodeStatus;
import org.autodisk.node.backup.LedgerCatchUp;
import org.autodisk.node.backup.LedgerCopies;
import org.autodisk.node.config.ClusterMember;
import org.autodisk.node.config.NodeConfig;
import org.autodisk.node.config.NodeConfigKeys;
import org.autodisk.node.fault.FaultFiles;
import org.autodisk.node.ledger.LedgerStore;
import org.autodisk.node.ledger.LogNodeLedgers;
import org.autodisk.node.lifecycle.Resources;
import org.autodisk.node.lifecycle.StartupStep;
import org.autodisk.node.ops.Handlers;
import org.autodisk.node.ops.NodeContext;
import org.autodisk.node.ops.NodeRole;
import org.autodisk.node.ops.Operation;
import org.autodisk.node.ledger.SegmentOptions;
import org.autodisk.rules.BacklogReport;

/**
 * The log node: holds the ledgers of the data nodes' ranges in its journal (LEDGER_APPEND, LEDGER_FENCE,
 * LEDGER_READ) and catches their backup copies up from them.
 */
public final class LogRole implements NodeRole {

    private static final long CATCH_UP_PERIOD_MS = 50;

    private final NodeContext ctx;
    private final LogServices services;

    private LogRole(NodeContext ctx, LogServices services) {
        this.ctx = ctx;
        this.services = services;
    }

    /**
     * Opens (and replays) the journal of ledgers, under {@code <data dir>/journal}; in memory with the memory engine.
     *
     * @param r      where it is registered for release
     * @param config the node's configuration
     * @param given  a ledger store to use instead of the configured one, or {@code null}
     * @return the open ledger store
     */
    public static LedgerStore openLedgers(Resources r, NodeConfig config, LedgerStore given) {
        return r.open(StartupStep.LEDGER_JOURNAL, () -> given != null ? given : openJournal(config),
                LedgerStore::close);
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
        SegmentOptions options = SegmentOptions.defaults()
                .withSegmentBytes(config.get(NodeConfigKeys.WAL_SEGMENT_BYTES))
                .withPreallocateBytes(config.get(NodeConfigKeys.WAL_PREALLOCATE_BYTES));
        return FaultFiles.of(config).map(options::withFaultHook).orElse(options);
    }

    /**
     * Builds the role on its open journal of ledgers.
     *
     * @param r       where what it opens is registered for release
     * @param ctx     what every node has
     * @param ledgers the journal of ledgers from {@link #openLedgers}
     * @return the role
     */
    public static LogRole open(Resources r, NodeContext ctx, LedgerStore ledgers) {
        LogNodeLedgers held = new LogNodeLedgers(ledgers);
        LedgerCatchUp ledgerCatchUp = r.open(StartupStep.CATCH_UP, () -> new LedgerCatchUp(ctx.nodeId(), held,
                new LedgerCopies(ctx.nodeId(), ctx.peers(), held), ctx.metadata(), ctx.metadataTimeout(),
                (range, backups, lag, idleMs) -> ctx.rules().catchUpRequested(new BacklogReport(range, backups, lag,
                        idleMs)), ctx.metrics()), LedgerCatchUp::close);
        LogRole role = new LogRole(ctx, new LogServices(held, ledgerCatchUp));
        role.registerMetrics();
        return role;
    }

    private void registerMetrics() {
        LedgerStore ledgers = services.ledgers().store();
        ctx.metrics().functionCounter(MetricNames.LEDGER_ENTRIES, "ledger entries made durable in the journal",
                ledgers, l -> l.stats().entries());
        ctx.metrics().functionCounter(MetricNames.LEDGER_SYNCS, "fsyncs of the journal of ledgers", ledgers,
                l -> l.stats().syncs());
        ctx.metrics().gauge(MetricNames.LEDGER_ENTRIES_PER_SYNC, "ledger entries per journal fsync since start",
                () -> ledgers.stats().entriesPerSync());
    }

    /**
     * Returns the log node's services.
     *
     * @return the ledgers it holds and its catch-up of backups
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
        handlers.serve(Operation.LEDGER_APPEND, new LedgerAppendHandler(ctx.nodeId(), services.ledgers()),
                        Handlers.Mode.INLINE)
                .serve(Operation.LEDGER_FENCE, new LedgerFenceHandler(ctx.nodeId(), services.ledgers()),
                        Handlers.Mode.INLINE)
                .serve(Operation.LEDGER_LEASE, new LedgerLeaseHandler(services.ledgers()), Handlers.Mode.INLINE)
                .serve(Operation.LEDGER_READ, new LedgerReadHandler(services.ledgers(), ctx.maxResponseBytes()));
    }

    @Override
    public long streamCount() {
        return 0;
    }

    @Override
    public String unwritable() {
        return services.ledgers().store().failure();
    }

    @Override
    public String describe() {
        LedgerStore.Stats stats = services.ledgers().store().stats();
        return "holds the data nodes' ledgers in its journal (" + stats.entries() + " entries in " + stats.syncs()
                + " fsyncs since start)";
    }

    @Override
    public void start(Supplier<NodeStatus> self) {
        services.catchUp().start(CATCH_UP_PERIOD_MS);
    }
}
