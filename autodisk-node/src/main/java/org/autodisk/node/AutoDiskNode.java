package org.autodisk.node;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.autodisk.core.Limits;
import org.autodisk.node.backup.BackupStores;
import org.autodisk.node.backup.CatchUp;
import org.autodisk.node.config.ClusterMember;
import org.autodisk.node.config.NodeConfig;
import org.autodisk.node.config.NodeConfigKeys;
import org.autodisk.node.directory.Directory;
import org.autodisk.node.directory.KeyRange;
import org.autodisk.node.directory.RangeMap;
import org.autodisk.node.metrics.NodeMetrics;
import org.autodisk.node.ops.NodeContext;
import org.autodisk.node.ops.RequestDispatcher;
import org.autodisk.node.peer.PeerChannel;
import org.autodisk.node.peer.PeerChannels;
import org.autodisk.node.queue.RequestQueue;
import org.autodisk.node.rules.LoadReports;
import org.autodisk.node.rules.NodeRules;
import org.autodisk.node.server.NodeServer;
import org.autodisk.node.shipping.LogRecovery;
import org.autodisk.node.shipping.WriteAheadLog;
import org.autodisk.node.store.LocalStore;
import org.autodisk.node.store.LocalStores;
import org.autodisk.node.wal.LogStore;
import org.autodisk.node.wal.SegmentOptions;
import org.autodisk.rules.BacklogReport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running AutoDisk node: its store, directory copy, request queue, peer channels and server.
 * {@link #close()} shuts it down gracefully: no new requests, the admitted ones answered, the store closed.
 */
public final class AutoDiskNode implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AutoDiskNode.class);
    private static final long CATCH_UP_PERIOD_MS = 50;

    private final NodeConfig config;
    private final NodeContext ctx;
    private final RequestDispatcher dispatcher;
    private final EventLoopGroup group;
    private final NodeServer server;
    private final LoadReports loadReports;

    private AutoDiskNode(Builder b) throws InterruptedException {
        this.config = b.config;
        String id = config.nodeId();
        logConfiguration();
        NodeMetrics metrics = new NodeMetrics(id);
        NodeRules rules = NodeRules.start(config, metrics);
        this.group = new MultiThreadIoEventLoopGroup(config.get(NodeConfigKeys.IO_THREADS),
                Thread.ofPlatform().name(id + "-io-", 0).daemon().factory(), NioIoHandler.newFactory());
        LocalStore store = b.store != null ? b.store : openStore();
        RequestQueue queue = RequestQueue.workers(id, config.get(NodeConfigKeys.QUEUE_CAPACITY),
                config.get(NodeConfigKeys.QUEUE_WORKERS));
        metrics.queueDepth(queue::depth);
        PeerChannel peers = b.peers != null ? b.peers.apply(group) : nettyPeers(group);
        Directory directory = Directory.range(RangeMap.initial(config.dataNodes(), config.splitPoints()));
        LogStore logStore = isLogNode() ? b.logStore != null ? b.logStore : openLogStore() : null;
        WriteAheadLog wal = isLogNode() ? null : recoverAndShip(store, peers);
        CatchUp catchUp = logStore == null ? null : new CatchUp(id, logStore, peers, directory::current,
                config::logNodesOf, (stream, backups, lag, idleMs) ->
                        rules.catchUpRequested(new BacklogReport(stream, backups, lag, idleMs)));
        this.ctx = new NodeContext(config.self(), config.members(), store, directory, peers, queue, metrics,
                config.limits(), config.get(NodeConfigKeys.HOP_LIMIT), config.get(NodeConfigKeys.MAX_RESPONSE_BYTES),
                wal, logStore, isLogNode() ? null : openBackups(), catchUp, config::logNodesOf, rules);
        this.dispatcher = new RequestDispatcher(ctx);
        this.loadReports = isLogNode() ? null
                : new LoadReports(id, config.dataNodes(), peers, dispatcher::selfStatus, rules);
        this.server = b.serve ? NodeServer.start(id, config.listenAddress(), group,
                config.limits().maxFrameBytes(), dispatcher) : null;
        if (catchUp != null) {
            catchUp.start(CATCH_UP_PERIOD_MS);
        }
        if (loadReports != null) {
            loadReports.start(config.get(NodeConfigKeys.RULES_LOAD_REPORT_MS));
        }
        logReady();
    }

    /**
     * Starts a node from its configuration, with a RocksDB (or configured) store and TCP peers.
     *
     * @param config the configuration
     * @return the running node
     * @throws InterruptedException if interrupted while binding
     */
    public static AutoDiskNode start(NodeConfig config) throws InterruptedException {
        return builder(config).start();
    }

    /**
     * Returns a builder, for tests that replace the store or the peer channel.
     *
     * @param config the configuration
     * @return the builder
     */
    public static Builder builder(NodeConfig config) {
        return new Builder(config);
    }

    private BackupStores openBackups() {
        boolean memory = "memory".equals(config.get(NodeConfigKeys.STORE_ENGINE));
        return new BackupStores(memory ? null : config.dataDir().resolve("backup"),
                config.get(NodeConfigKeys.ROCKSDB_WAL) || config.get(NodeConfigKeys.SYNC_WRITES));
    }

    private boolean isLogNode() {
        return config.self().role() == ClusterMember.Role.LOG;
    }

    private LogStore openLogStore() {
        if ("memory".equals(config.get(NodeConfigKeys.STORE_ENGINE))) {
            return LogStore.inMemory();
        }
        return LogStore.segments(config.dataDir().resolve("wal"), config.nodeId(),
                SegmentOptions.defaults().withSegmentBytes(config.get(NodeConfigKeys.WAL_SEGMENT_BYTES))
                        .withPreallocateBytes(config.get(NodeConfigKeys.WAL_PREALLOCATE_BYTES)));
    }

    private WriteAheadLog recoverAndShip(LocalStore store, PeerChannel peers) {
        List<String> logNodes = config.logNodesOf(config.nodeId());
        if (logNodes.isEmpty()) {
            return null;
        }
        long last = new LogRecovery(config.nodeId(), logNodes, peers, store)
                .run(Duration.ofMillis(config.get(NodeConfigKeys.WAL_RECOVERY_TIMEOUT_MS)));
        LOG.info("{}: shipping its write-ahead log to {} (default multiplicity {}, the rules may ask for more), "
                + "next LSN {}", config.nodeId(), logNodes, config.get(NodeConfigKeys.WAL_MULTIPLICITY), last + 1);
        return WriteAheadLog.shipping(config.nodeId(), logNodes, peers, last + 1,
                config.get(NodeConfigKeys.WAL_MAX_BATCH), store);
    }

    private LocalStore openStore() {
        boolean memory = "memory".equals(config.get(NodeConfigKeys.STORE_ENGINE));
        if (config.self().role() == ClusterMember.Role.LOG || memory) {
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

    private PeerChannel nettyPeers(EventLoopGroup g) {
        Map<String, InetSocketAddress> addresses = config.members().stream()
                .filter(m -> !m.id().equals(config.nodeId()))
                .collect(Collectors.toMap(ClusterMember::id, ClusterMember::address));
        return PeerChannels.netty(config.nodeId(), addresses, g, config.get(NodeConfigKeys.CONNECT_TIMEOUT_MS),
                config.get(NodeConfigKeys.FORWARD_TIMEOUT_MS));
    }

    private void logConfiguration() {
        LOG.info("{}: starting AutoDisk node, role {}, effective configuration:", config.nodeId(),
                config.self().role().label());
        config.effective().forEach((k, v) -> LOG.info("{}:   {} = {}", config.nodeId(), k, v));
    }

    private void logReady() {
        String owned = ctx.directory().current().ranges().stream().filter(r -> r.owner().equals(ctx.nodeId()))
                .map(KeyRange::toString).collect(Collectors.joining("; "));
        LOG.info("{}: serving on {}; store {} with {} streams; owns {}", ctx.nodeId(),
                server == null ? "(in-memory only)" : server.address(), ctx.store().describe(), ctx.store().count(),
                owned.isEmpty() ? "no range" : owned);
    }

    /**
     * Returns the node id.
     *
     * @return the id
     */
    public String id() {
        return ctx.nodeId();
    }

    /**
     * Returns the address the server is bound to.
     *
     * @return the bound address, or {@code null} for a node without a server
     */
    public InetSocketAddress address() {
        return server == null ? null : server.address();
    }

    /**
     * Returns the entry point for requests, used by in-memory peers and tests.
     *
     * @return the dispatcher
     */
    public RequestDispatcher dispatcher() {
        return dispatcher;
    }

    /**
     * Returns the local store.
     *
     * @return the store
     */
    public LocalStore store() {
        return ctx.store();
    }

    /**
     * Returns this node's directory copy.
     *
     * @return the directory
     */
    public Directory directory() {
        return ctx.directory();
    }

    /**
     * Returns this node's metrics.
     *
     * @return the metrics
     */
    public NodeMetrics metrics() {
        return ctx.metrics();
    }

    /**
     * Returns the write-ahead log this data node ships to.
     *
     * @return the log, or {@code null} on a log node or in a cluster without log nodes
     */
    public WriteAheadLog wal() {
        return ctx.wal();
    }

    /**
     * Returns this data node's backup copies of other nodes' ranges.
     *
     * @return the backup stores, or {@code null} on a log node
     */
    public BackupStores backups() {
        return ctx.backups();
    }

    /**
     * Returns this node's rules.
     *
     * @return the rules that decide its requests
     */
    public NodeRules rules() {
        return ctx.rules();
    }

    /**
     * Returns the log this log node keeps.
     *
     * @return the log store, or {@code null} on a data node
     */
    public LogStore logStore() {
        return ctx.logStore();
    }

    /**
     * Returns the key and value limits this node enforces.
     *
     * @return the limits
     */
    public Limits limits() {
        return ctx.limits();
    }

    @Override
    public void close() {
        long t0 = System.nanoTime();
        Duration drain = Duration.ofMillis(config.get(NodeConfigKeys.DRAIN_TIMEOUT_MS));
        LOG.info("{}: shutting down; draining {} requests", id(), dispatcher.inFlight());
        dispatcher.close();
        if (server != null) {
            server.close();
        }
        boolean drained = awaitInFlight(t0 + drain.toNanos());
        ctx.queue().shutdown(Duration.ofNanos(Math.max(0, t0 + drain.toNanos() - System.nanoTime())));
        if (server != null) {
            server.closeConnections();
        }
        if (ctx.wal() != null) {
            ctx.wal().close();
        }
        if (ctx.catchUp() != null) {
            ctx.catchUp().close();
        }
        if (loadReports != null) {
            loadReports.close();
        }
        ctx.peers().close();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        ctx.store().close();
        if (ctx.logStore() != null) {
            ctx.logStore().close();
        }
        if (ctx.backups() != null) {
            ctx.backups().close();
        }
        ctx.rules().close();
        LOG.info("{}: stopped {} in {} ms", id(), drained ? "cleanly" : "after the drain timeout",
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
    }

    private boolean awaitInFlight(long deadline) {
        while (dispatcher.inFlight() > 0) {
            if (System.nanoTime() > deadline) {
                LOG.warn("{}: {} requests unanswered at the drain timeout", id(), dispatcher.inFlight());
                return false;
            }
            LockSupport.parkNanos(1_000_000);
        }
        return true;
    }

    /** Builds a node, optionally with a replaced store or peer channel. */
    public static final class Builder {
        private final NodeConfig config;
        private LocalStore store;
        private LogStore logStore;
        private Function<EventLoopGroup, PeerChannel> peers;
        private boolean serve = true;

        private Builder(NodeConfig config) {
            this.config = config;
        }

        /**
         * Uses this store instead of opening the configured one.
         *
         * @param s the store
         * @return this builder
         */
        public Builder store(LocalStore s) {
            this.store = s;
            return this;
        }

        /**
         * Uses this log store on a log node instead of opening the configured one.
         *
         * @param l the log store
         * @return this builder
         */
        public Builder logStore(LogStore l) {
            this.logStore = l;
            return this;
        }

        /**
         * Uses this peer channel instead of TCP connections.
         *
         * @param p a factory given the node's event loops
         * @return this builder
         */
        public Builder peers(Function<EventLoopGroup, PeerChannel> p) {
            this.peers = p;
            return this;
        }

        /**
         * Starts no server: the node is reached only through {@link AutoDiskNode#dispatcher()}.
         *
         * @return this builder
         */
        public Builder withoutServer() {
            this.serve = false;
            return this;
        }

        /**
         * Starts the node.
         *
         * @return the running node
         * @throws InterruptedException if interrupted while binding
         */
        public AutoDiskNode start() throws InterruptedException {
            return new AutoDiskNode(this);
        }
    }
}
