package org.autodisk.node;

import io.netty.channel.EventLoopGroup;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.function.Predicate;
import org.autodisk.core.Limits;
import org.autodisk.node.backup.BackupStores;
import org.autodisk.node.config.NodeConfig;
import org.autodisk.node.config.NodeConfigKeys;
import org.autodisk.node.data.DataRole;
import org.autodisk.node.data.DataServices;
import org.autodisk.node.directory.Directory;
import org.autodisk.node.lifecycle.Resources;
import org.autodisk.node.lifecycle.StartupStep;
import org.autodisk.node.ledger.LedgerStore;
import org.autodisk.node.lognode.LogRole;
import org.autodisk.node.lognode.LogServices;
import org.autodisk.node.meta.Metadata;
import org.autodisk.node.metrics.NodeMetrics;
import org.autodisk.node.ops.NodeContext;
import org.autodisk.node.ops.NodeRole;
import org.autodisk.node.ops.RequestDispatcher;
import org.autodisk.node.peer.PeerChannel;
import org.autodisk.node.rules.NodeRules;
import org.autodisk.node.server.NodeServer;
import org.autodisk.node.rangelog.WriteAheadLog;
import org.autodisk.node.store.LocalStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running AutoDisk node, assembled by its role: what every node has ({@link NodeContext}) and a
 * {@link DataRole} or a {@link LogRole}. Start-up runs in named steps ({@link StartupStep}); a step that fails
 * releases everything the earlier ones opened. {@link #close()} shuts the node down gracefully: no new requests,
 * the admitted ones answered, then everything released in reverse order.
 */
public final class AutoDiskNode implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AutoDiskNode.class);

    private final NodeConfig config;
    private final Resources resources;
    private final NodeContext ctx;
    private final NodeRole role;
    private final RequestDispatcher dispatcher;
    /** The server, or {@code null} for a node reached only in memory ({@link Builder#withoutServer()}). */
    private final NodeServer server;

    private AutoDiskNode(NodeConfig config, NodeAssembly.Assembled assembly) {
        this.config = config;
        this.resources = assembly.resources();
        this.ctx = assembly.ctx();
        this.role = assembly.role();
        this.dispatcher = assembly.dispatcher();
        this.server = assembly.server();
        LOG.info("{}: serving on {}; {}", ctx.nodeId(), server == null ? "(in-memory only)" : server.address(),
                role.describe());
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
     * Returns what a data node has.
     *
     * @return its store, write-ahead log and backup copies
     * @throws IllegalStateException on a log node
     */
    public DataServices data() {
        if (role instanceof DataRole d) {
            return d.services();
        }
        throw new IllegalStateException("node " + id() + " is a log node: it has no store, write-ahead log or "
                + "backup copies");
    }

    /**
     * Returns what a log node has.
     *
     * @return its ledgers and catch-up
     * @throws IllegalStateException on a data node
     */
    public LogServices log() {
        if (role instanceof LogRole l) {
            return l.services();
        }
        throw new IllegalStateException("node " + id() + " is a data node: it holds no ledgers");
    }

    /**
     * Returns the local store of a data node.
     *
     * @return the store
     * @throws IllegalStateException on a log node
     */
    public LocalStore store() {
        return data().store();
    }

    /**
     * Returns the write-ahead log of a data node.
     *
     * @return the log (applied at once in a cluster without log nodes)
     * @throws IllegalStateException on a log node
     */
    public WriteAheadLog wal() {
        return data().wal();
    }

    /**
     * Returns a data node's backup copies of other nodes' ranges.
     *
     * @return the backup stores
     * @throws IllegalStateException on a log node
     */
    public BackupStores backups() {
        return data().backups();
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
     * Returns this node's view of the cluster metadata.
     *
     * @return the metadata
     */
    public Metadata metadata() {
        return ctx.metadata();
    }

    /**
     * Returns this node's channel to its peers (the ledger protocol and tests reach other nodes through it).
     *
     * @return the peer channel
     */
    public PeerChannel peers() {
        return ctx.peers();
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
     * Returns this node's rules.
     *
     * @return the rules that decide its requests
     */
    public NodeRules rules() {
        return ctx.rules();
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
        resources.close();
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

    /** Builds a node, optionally with a replaced store, journal of ledgers or peer channel, or a fault at start-up. */
    public static final class Builder {
        private final NodeConfig config;
        private LocalStore store;
        private LedgerStore ledgerStore;
        private Function<EventLoopGroup, PeerChannel> peers;
        private boolean serve = true;
        private Predicate<StartupStep> failAt = step -> false;
        private Function<NodeConfig, Metadata> metadata;

        private Builder(NodeConfig config) {
            this.config = config;
        }

        /**
         * Uses this store on a data node instead of opening the configured one.
         *
         * @param s the store
         * @return this builder
         */
        public Builder store(LocalStore s) {
            this.store = s;
            return this;
        }

        /**
         * Uses this journal of ledgers on a log node instead of opening the configured one.
         *
         * @param l the ledger store
         * @return this builder
         */
        public Builder ledgerStore(LedgerStore l) {
            this.ledgerStore = l;
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
         * Uses this metadata instead of a Ratis replica (in-memory clusters).
         *
         * @param m a factory given the node's configuration
         * @return this builder
         */
        public Builder metadata(Function<NodeConfig, Metadata> m) {
            this.metadata = m;
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
         * Fault hook: makes a start-up step fail, to test that the steps before it are released.
         *
         * @param step the step that fails
         * @return this builder
         */
        public Builder failAt(StartupStep step) {
            this.failAt = step::equals;
            return this;
        }

        /**
         * Starts the node.
         *
         * @return the running node
         * @throws InterruptedException if interrupted while binding
         * @throws org.autodisk.core.config.ConfigException if the configuration cannot be used
         * @throws RuntimeException if a start-up step fails (everything opened before it is released)
         */
        public AutoDiskNode start() throws InterruptedException {
            NodeConfig effective = ClusterJoin.members(config);
            return new AutoDiskNode(effective, new NodeAssembly(effective, store, ledgerStore, peers, metadata, serve,
                    failAt).assemble());
        }
    }
}
