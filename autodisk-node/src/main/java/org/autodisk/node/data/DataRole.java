package org.autodisk.node.data;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.autodisk.core.cluster.NodeStatus;
import org.autodisk.core.protocol.Responses;
import org.autodisk.node.backup.BackupStores;
import org.autodisk.node.balance.BalanceRound;
import org.autodisk.node.balance.Balancer;
import org.autodisk.node.config.ClusterMember;
import org.autodisk.node.config.NodeConfig;
import org.autodisk.node.config.NodeConfigKeys;
import org.autodisk.node.directory.fatbtree.FatBtrees;
import org.autodisk.node.fault.FaultFiles;
import org.autodisk.node.ledger.WriterSettings;
import org.autodisk.node.lifecycle.Resources;
import org.autodisk.node.lifecycle.StartupStep;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.migration.MigrationSettings;
import org.autodisk.node.migration.Migrations;
import org.autodisk.node.ops.Handlers;
import org.autodisk.node.ops.NodeContext;
import org.autodisk.node.ops.NodeRole;
import org.autodisk.node.ops.Operation;
import org.autodisk.node.ops.Splits;
import org.autodisk.node.rangelog.CopiesInto;
import org.autodisk.node.rangelog.RangeLogs;
import org.autodisk.node.rules.LoadReports;
import org.autodisk.node.rangelog.WriteAheadLog;
import org.autodisk.node.store.DiskSpace;
import org.autodisk.node.store.LocalStore;
import org.autodisk.node.store.LocalStores;
import org.autodisk.node.store.RangeUsage;
import org.autodisk.node.store.StoreHealth;
import org.autodisk.node.wire.RangeUsageReport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The data node: owns ranges and serves their streams (INSERT, SEARCH, DELETE, TRAVERSE) through its store and
 * write-ahead log, keeps backup copies of other data nodes' ranges (LEDGER_APPLY), reports its load and the size
 * of its ranges to the rules, splits the ranges they ask to split, and takes part in migrations as source or target
 * (MIGRATION_READ); on the balancing data node, runs the balance rounds.
 */
public final class DataRole implements NodeRole {

    private static final Logger LOG = LoggerFactory.getLogger(DataRole.class);
    /** How often the node looks at the migrations in the metadata. */
    private static final long MIGRATION_TICK_MS = 100;

    private final NodeContext ctx;
    private final DataServices services;
    private final LoadReports loadReports;
    private final long loadReportMs;
    private final RangeChecks rangeChecks;
    private final Duration routeWait;
    private final Migrations migrations;
    private final Balancer balancer;
    private final StraySpans straySpans;
    private final long sweepMs;
    private final long rangeCheckMs;
    private final long balanceMs;
    private final StoreSilence silence;
    private final Supplier<DiskSpace> disk;

    /**
     * The data node's storage, opened before its network.
     *
     * @param store   the store of the streams it owns
     * @param backups its backup copies
     * @param health  whether the store's writes work
     */
    public record Storage(LocalStore store, BackupStores backups, StoreHealth health) {
    }

    /** The data node's background work, each started with its period. */
    private record Tasks(LoadReports loadReports, RangeChecks rangeChecks, Migrations migrations, Balancer balancer,
            StraySpans straySpans) {
    }

    private DataRole(NodeContext ctx, DataServices services, Tasks tasks, NodeConfig config, StoreHealth health) {
        this.ctx = ctx;
        this.silence = new StoreSilence(ctx.nodeId(), services.store(), health, config.dataDir(),
                config.get(NodeConfigKeys.STORE_FAILOVER_AFTER_MS), System::nanoTime);
        this.services = services;
        this.loadReports = tasks.loadReports();
        this.loadReportMs = config.get(NodeConfigKeys.RULES_LOAD_REPORT_MS);
        this.rangeCheckMs = config.get(NodeConfigKeys.RANGE_CHECK_MS);
        this.balanceMs = config.get(NodeConfigKeys.BALANCE_CHECK_MS);
        this.rangeChecks = tasks.rangeChecks();
        this.routeWait = routeWait(config);
        this.migrations = tasks.migrations();
        this.balancer = tasks.balancer();
        this.straySpans = tasks.straySpans();
        this.sweepMs = config.get(NodeConfigKeys.STORE_SWEEP_MS);
        this.disk = diskOf(config);
    }

    /**
     * Opens the store and the backup copies: the first steps of a data node, before its network.
     *
     * @param r      where they are registered for release
     * @param config the node's configuration
     * @param given  a store to use instead of the configured one, or {@code null}
     * @return the storage
     */
    public static Storage openStorage(Resources r, NodeConfig config, LocalStore given) {
        StoreHealth health = new StoreHealth(System::nanoTime);
        LocalStore store = r.open(StartupStep.STORE, () -> LocalStores.watched(given != null ? given
                : withFaultHooks(config, openStore(config)), health), LocalStore::close);
        // the copy is on the same disk: its failed writes count, and the disk-full hook fails them too
        BackupStores backups = r.open(StartupStep.BACKUPS, () -> openBackups(config,
                copy -> LocalStores.watched(withFaultHooks(config, copy), health)), BackupStores::close);
        return new Storage(store, backups, health);
    }

    /** The store under the {@code disk-full} hook of {@code fault.hooks-dir}, when the node names one (fault tests). */
    private static LocalStore withFaultHooks(NodeConfig config, LocalStore store) {
        return FaultFiles.of(config).map(f -> {
            LOG.warn("{}: fault hooks on: the file disk-full in {} fails the writes of a store", config.nodeId(),
                    config.get(NodeConfigKeys.FAULT_HOOKS_DIR));
            return LocalStores.failingWritesWhile(store, f::diskFull, f::diskFullMessage);
        }).orElse(store);
    }

    private static LocalStore openStore(NodeConfig config) {
        if ("memory".equals(config.get(NodeConfigKeys.STORE_ENGINE))) {
            return LocalStores.inMemory();
        }
        boolean sync = config.get(NodeConfigKeys.SYNC_WRITES);
        if (sync || config.get(NodeConfigKeys.ROCKSDB_WAL) || config.logNodesOf(config.nodeId()).isEmpty()) {
            return LocalStores.rocksDb(config.dataDir(), sync);
        }
        LOG.info("{}: RocksDB's own WAL is off: its log nodes hold every change, and a restart replays from them "
                + "what RocksDB had not flushed", config.nodeId());
        return LocalStores.rocksDbWithoutWal(config.dataDir());
    }

    private static BackupStores openBackups(NodeConfig config, UnaryOperator<LocalStore> wrap) {
        boolean memory = "memory".equals(config.get(NodeConfigKeys.STORE_ENGINE));
        return new BackupStores(memory ? null : config.dataDir().resolve("backup"),
                config.get(NodeConfigKeys.ROCKSDB_WAL) || config.get(NodeConfigKeys.SYNC_WRITES), wrap);
    }

    /**
     * Builds the role on its storage: opens the log of its ranges (they recover and replay their ledgers) and
     * prepares its load reports.
     *
     * @param r       where what it opens is registered for release
     * @param config  the node's configuration
     * @param ctx     what every node has
     * @param storage the storage from {@link #openStorage}
     * @return the role
     */
    public static DataRole open(Resources r, NodeConfig config, NodeContext ctx, Storage storage) {
        // the log opens first (a migration needs it); its takeovers stop the migrations' copies once these exist
        AtomicReference<CopiesInto> copies = new AtomicReference<>(CopiesInto.NONE);
        WriteAheadLog wal = r.open(StartupStep.WRITE_AHEAD_LOG, () -> openLog(config, ctx, storage.store(),
                storage.backups(), (range, timeout) -> copies.get().stop(range, timeout)), WriteAheadLog::close);
        LoadReports reports = r.open(StartupStep.LOAD_REPORTS, () -> new LoadReports(ctx.nodeId(),
                ctx.membership()::dataNodes, ctx.peers(), ctx.rules()), LoadReports::close);
        RangeChecks checks = r.open(StartupStep.RANGE_CHECKS, () -> new RangeChecks(ctx, storage.store(),
                wal::splitCommand), RangeChecks::close);
        Migrations migrations = r.open(StartupStep.MIGRATIONS, () -> new Migrations(ctx, storage.store(),
                storage.backups(), wal, MigrationSettings.of(config)), Migrations::close);
        copies.set(migrations::stopCopiesInto);
        DataServices services = new DataServices(storage.store(), wal, storage.backups(), new RangeRequests());
        BalanceRound rounds = new BalanceRound(ctx, () -> usage(ctx, services), diskOf(config),
                storage.store()::splitKey, new Splits(ctx, wal::splitCommand));
        Balancer balancer = r.open(StartupStep.BALANCER, () -> new Balancer(ctx.nodeId(), rounds,
                () -> ctx.metadata().current()), Balancer::close);
        StraySpans stray = r.open(StartupStep.STRAY_SWEEP, () -> new StraySpans(ctx.nodeId(), ctx.metadata(),
                storage.store(), storage.backups(), wal::hasWriterOver,
                Duration.ofMillis(config.get(NodeConfigKeys.METADATA_TIMEOUT_MS))), StraySpans::close);
        return new DataRole(ctx, services, new Tasks(reports, checks, migrations, balancer, stray), config,
                storage.health());
    }

    /** How long a request waits for the metadata to route it. */
    private static Duration routeWait(NodeConfig config) {
        return Duration.ofMillis(Math.min(config.get(NodeConfigKeys.METADATA_TIMEOUT_MS),
                config.get(NodeConfigKeys.FORWARD_TIMEOUT_MS) / 2));
    }

    private static WriteAheadLog openLog(NodeConfig config, NodeContext ctx, LocalStore store,
            BackupStores backups, CopiesInto copies) {
        List<String> logNodes = config.logNodesOf(config.nodeId());
        return logNodes.isEmpty() ? WriteAheadLog.direct(store) : openLedgers(config, ctx, store, backups, logNodes,
                copies);
    }

    private static WriteAheadLog openLedgers(NodeConfig config, NodeContext ctx, LocalStore store,
            BackupStores backups, List<String> logNodes, CopiesInto copies) {
        int m = logNodes.size();
        LOG.info("{}: logging each range it owns as ledgers on {} (multiplicity {}; any log node of {} replaces one "
                + "that fails)", config.nodeId(), logNodes, m, config.logNodes());
        Duration metadataTimeout = Duration.ofMillis(config.get(NodeConfigKeys.METADATA_TIMEOUT_MS));
        WriterSettings writer = new WriterSettings(m,
                Duration.ofMillis(config.get(NodeConfigKeys.WAL_ANSWER_TIMEOUT_MS)), metadataTimeout,
                Duration.ofMillis(config.get(NodeConfigKeys.LEASE_MS)));
        Duration wait = Duration.ofMillis(config.get(NodeConfigKeys.FORWARD_TIMEOUT_MS) * 4L / 5);
        Duration startWait = Duration.ofMillis(Math.min(config.get(NodeConfigKeys.WAL_RECOVERY_TIMEOUT_MS),
                config.get(NodeConfigKeys.METADATA_TIMEOUT_MS)));
        return RangeLogs.open(new RangeLogs.Settings(config.nodeId(), logNodes, config.logNodes(), writer, wait,
                startWait, Duration.ofMillis(config.get(NodeConfigKeys.LEASE_MARGIN_MS))), ctx.metadata(),
                ctx.peers(), store, backups::copy, copies, ctx.metrics());
    }

    /**
     * Returns the data node's services.
     *
     * @return store, write-ahead log and backup copies
     */
    public DataServices services() {
        return services;
    }

    @Override
    public ClusterMember.Role role() {
        return ClusterMember.Role.DATA;
    }

    @Override
    public void register(Handlers handlers) {
        Serving serving = Serving.of(ctx, services, routeWait);
        handlers.serve(Operation.INSERT, new InsertHandler(serving))
                .serve(Operation.SEARCH, new SearchHandler(serving))
                .serve(Operation.DELETE, new DeleteHandler(serving))
                .serve(Operation.TRAVERSE, new TraverseHandler(serving))
                .serve(Operation.LEDGER_APPLY, new LedgerApplyHandler(ctx.nodeId(), ctx.metadata(), services.store(),
                        services.backups()))
                .serve(Operation.LEDGER_HANDOVER, new LedgerHandoverHandler(ctx.nodeId(), ctx.metadata(),
                        services.wal()))
                .serve(Operation.PAGE_MESSAGE, FatBtrees.pageHandler(ctx.directory()), Handlers.Mode.INLINE)
                .serve(Operation.PAGE_FETCH, FatBtrees.fetchHandler(ctx.directory()), Handlers.Mode.INLINE)
                .serve(Operation.MIGRATION_READ, migrations.readHandler())
                .serve(Operation.MIGRATION_WRITE, migrations.hostWriteHandler())
                .serve(Operation.DIRECTORY_INDEX, r -> r.reply(Responses.bytesResult(ctx.directory().index(ctx.nodeId(),
                        ctx.metadata().current()).toJson())))
                .serve(Operation.RANGE_SPLIT, new RangeSplitHandler(ctx, services.store(),
                        services.wal()::splitCommand))
                .serve(Operation.RANGE_USAGE, r -> r.reply(Responses.bytesResult(new RangeUsageReport(ctx.nodeId(),
                        ctx.metadata().current().version(), rangeUsage(), disk()).encode())));
    }

    @Override
    public DiskSpace disk() {
        return disk.get();
    }

    /** The disk of the data directory, or what the {@code disk-used-percent} hook says while it is on (fault tests). */
    private static Supplier<DiskSpace> diskOf(NodeConfig config) {
        Path dir = config.dataDir();
        Optional<FaultFiles> hooks = FaultFiles.of(config);
        return () -> {
            DiskSpace measured = DiskSpace.of(dir);
            return hooks.map(h -> h.disk(measured)).orElse(measured);
        };
    }

    @Override
    public Map<Integer, RangeUsage> rangeUsage() {
        return usage(ctx, services);
    }

    @Override
    public MetaCommand.Split splitCommand(RangeDescriptor range, byte[] at) {
        return services.wal().splitCommand(range, at);
    }

    @Override
    public byte[] splitKey(byte[] low, byte[] high) {
        return services.store().splitKey(low, high);
    }

    private static Map<Integer, RangeUsage> usage(NodeContext ctx, DataServices services) {
        Map<Integer, RangeUsage> out = new TreeMap<>();
        for (RangeDescriptor r : ctx.metadata().current().ranges()) {
            if (r.owner().equals(ctx.nodeId())) {
                RangeUsage u = services.store().usage(r.low(), r.high());
                out.put(r.id(), new RangeUsage(u.keys(), u.bytes(), services.requests().rate(r.id())));
            }
        }
        return out;
    }

    @Override
    public long streamCount() {
        return services.store().count();
    }

    @Override
    public String describe() {
        String owned = ctx.metadata().current().ranges().stream().filter(r -> r.owner().equals(ctx.nodeId()))
                .map(RangeDescriptor::toString).collect(Collectors.joining("; "));
        String log = services.wal().describe();
        return "store " + services.store().describe() + " with " + services.store().count() + " streams; owns "
                + (owned.isEmpty() ? "no range" : owned) + (log.isEmpty() ? "" : "; " + log);
    }

    /**
     * Drops the store's and the backup copy's stray spans ({@link StraySpans}): what moved on while the cluster had it
     * failed. Later moves and fills to this node delete their span first anyway; this frees the disk and keeps the
     * node's stream count true.
     */
    @Override
    public boolean dropStale(MetaState state) {
        String self = ctx.nodeId();
        long store = 0;
        long copy = 0;
        List<Integer> serving = new ArrayList<>();
        for (RangeDescriptor r : state.ranges()) {
            if (StraySpans.strayInStore(state, r, self)) {
                if (services.wal().hasWriterOver(r)) {
                    serving.add(r.id()); // not retired yet: a read it serves must not find the span gone
                } else {
                    store += services.store().deleteRange(r.low(), r.high());
                }
            }
            if (services.backups().opened() && StraySpans.strayInCopy(state, r, self)) {
                copy += services.backups().copy().deleteRange(r.low(), r.high());
            }
        }
        services.store().makeDurable();
        if (services.backups().opened()) {
            services.backups().copy().makeDurable();
        }
        LOG.info("{}: dropped {} streams of ranges it no longer owns and {} of backup copies it no longer keeps{}",
                self, store, copy, serving.isEmpty() ? "" : "; ranges " + serving + " still have a writer here");
        return serving.isEmpty();
    }

    /** Keeps this node silent once its store's writes have failed for {@code store.failover-after-ms}. */
    @Override
    public String silenced() {
        return silence.why();
    }

    @Override
    public void afterFailover() {
        balancer.runSoon();
    }

    @Override
    public void start(Supplier<NodeStatus> self) {
        loadReports.start(loadReportMs, self);
        rangeChecks.start(rangeCheckMs);
        migrations.start(MIGRATION_TICK_MS);
        balancer.start(balanceMs);
        straySpans.start(sweepMs);
    }
}
