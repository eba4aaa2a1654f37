package org.autodisk.node;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.handler.ssl.SslContext;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;
import org.autodisk.core.cluster.MetricNames;
import org.autodisk.core.config.ConfigException;
import org.autodisk.core.net.Tls;
import org.autodisk.node.config.ClusterMember;
import org.autodisk.node.config.LiveMembers;
import org.autodisk.node.config.NodeConfig;
import org.autodisk.node.config.NodeConfigKeys;
import org.autodisk.node.data.DataRole;
import org.autodisk.node.directory.Directory;
import org.autodisk.node.directory.fatbtree.FatBtrees;
import org.autodisk.node.failure.Failures;
import org.autodisk.node.ledger.LedgerStore;
import org.autodisk.node.lifecycle.Resources;
import org.autodisk.node.lifecycle.StartupStep;
import org.autodisk.node.lognode.LogRole;
import org.autodisk.node.meta.CommandResult;
import org.autodisk.node.meta.Member;
import org.autodisk.node.meta.MemberState;
import org.autodisk.node.meta.MetaBootstrap;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.Metadata;
import org.autodisk.node.metrics.MetricsEndpoint;
import org.autodisk.node.metrics.NodeMetrics;
import org.autodisk.node.metrics.PrometheusNames;
import org.autodisk.node.ops.NodeContext;
import org.autodisk.node.ops.NodeRole;
import org.autodisk.node.ops.RequestDispatcher;
import org.autodisk.node.peer.PeerChannel;
import org.autodisk.node.peer.PeerChannels;
import org.autodisk.node.queue.RequestQueue;
import org.autodisk.node.rules.NodeRules;
import org.autodisk.node.server.NodeServer;
import org.autodisk.node.server.ServerSettings;
import org.autodisk.node.store.LocalStore;
import org.autodisk.node.wire.NodeAuth;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Assembles a node by its role, step by step ({@link StartupStep}): the role's storage (a data node's store
 * and backup copies, or a log node's journal of ledgers); event loops, request queue and peer channel; the metadata
 * replica; the rules (compiled meanwhile on a thread of their own); the role itself (a data node's ranges recover
 * their ledgers); the server; background work. Storage is opened before the
 * network so that, released in reverse order, it is closed only after the network has stopped. If a step fails,
 * everything opened is released.
 */
final class NodeAssembly {

    private static final Logger LOG = LoggerFactory.getLogger(NodeAssembly.class);

    private final NodeConfig config;
    /** Where a Fat-Btree data node keeps its index copies, under its data directory. */
    private static final String INDEX_DIR = "index";

    private final LocalStore givenStore;
    private final LedgerStore givenLedgers;
    private final Function<EventLoopGroup, PeerChannel> givenPeers;
    private final Function<NodeConfig, Metadata> givenMetadata;
    private final boolean serve;
    private final Resources resources;
    private CompletableFuture<NodeRules> compiling;
    private boolean rulesClaimed;
    /**
     * The directory this node runs: the stored kind after an earlier start, else {@code cluster.directory}; a node
     * given its store (in-process test clusters) keeps no file and runs the configured kind.
     */
    private String directoryKind;

    /** What the assembly produced. */
    record Assembled(Resources resources, NodeContext ctx, NodeRole role, RequestDispatcher dispatcher,
            NodeServer server) {
    }

    NodeAssembly(NodeConfig config, LocalStore store, LedgerStore ledgers, Function<EventLoopGroup, PeerChannel> peers,
            Function<NodeConfig, Metadata> metadata, boolean serve, Predicate<StartupStep> failAt) {
        this.config = config;
        this.givenStore = store;
        this.givenLedgers = ledgers;
        this.givenPeers = peers;
        this.givenMetadata = metadata;
        this.serve = serve;
        this.resources = new Resources(config.nodeId(), failAt);
    }

    Assembled assemble() throws InterruptedException {
        logConfiguration();
        Security security = security();
        try {
            return steps(security);
        } catch (RuntimeException | InterruptedException e) {
            LOG.error("{}: start-up failed ({}); releasing what was opened", config.nodeId(), e.toString());
            resources.close();
            rulesUnclaimed();
            throw e;
        }
    }

    /**
     * Compiles the rules on a thread of its own, so that the compile (seconds of CPU with Drools) overlaps the
     * steps that open the store, the network and the metadata replica; {@link StartupStep#RULES} takes the result.
     */
    private CompletableFuture<NodeRules> compileRules(NodeMetrics metrics) {
        CompletableFuture<NodeRules> f = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name(config.nodeId() + "-rules-compile").start(() -> {
            try {
                f.complete(NodeRules.start(config, metrics));
            } catch (RuntimeException | Error e) {
                f.completeExceptionally(e);
            }
        });
        return compiling = f;
    }

    private NodeRules rules() {
        NodeRules r;
        try {
            r = compiling.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        }
        rulesClaimed = true;
        return r;
    }

    /** Closes rules compiled for a start-up that failed before it took them. */
    private void rulesUnclaimed() {
        if (compiling != null && !rulesClaimed) {
            compiling.thenAccept(NodeRules::close);
        }
    }

    private Assembled steps(Security security) throws InterruptedException {
        String id = config.nodeId();
        directoryKind = directoryKind(id);
        warnLostIndex(id);
        MeterRegistry registry = registry();
        NodeMetrics metrics = new NodeMetrics(id, registry);
        compileRules(metrics);
        boolean logNode = config.self().role() == ClusterMember.Role.LOG;
        DataRole.Storage storage = logNode ? null : DataRole.openStorage(resources, config, givenStore);
        LedgerStore ledgers = logNode ? LogRole.openLedgers(resources, config, givenLedgers) : null;
        EventLoopGroup group = resources.open(StartupStep.EVENT_LOOPS, this::eventLoops,
                g -> g.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly());
        RequestQueue queue = resources.open(StartupStep.QUEUE, () -> RequestQueue.workers(id,
                config.get(NodeConfigKeys.QUEUE_CAPACITY), config.get(NodeConfigKeys.QUEUE_WORKERS)),
                q -> q.shutdown(Duration.ofSeconds(5)));
        metrics.gauge(MetricNames.QUEUE_DEPTH, "requests waiting in the queue now", queue::depth);
        LiveMembers members = new LiveMembers(id, config.members());
        PeerChannel peers = resources.open(StartupStep.PEERS, () -> givenPeers != null ? givenPeers.apply(group)
                : nettyPeers(group, security, members), PeerChannel::close);
        Metadata metadata = resources.open(StartupStep.METADATA, this::metadata, Metadata::close);
        metrics.latency(MetricNames.METADATA_APPLY_LAG, "time from a metadata change's proposal to its apply here",
                metadata.applyLag());
        Directory directory = resources.open(StartupStep.DIRECTORY, () -> directory(id, peers), Directory::close);
        metadata.subscribe(members::apply);
        directory.follow(metadata);
        boolean joining = !config.joinSeeds().isEmpty();
        if (!joining) {
            // a joining node's members are the cluster's own: it neither creates the cluster nor compares with it
            resources.open(StartupStep.METADATA, () -> MetaBootstrap.start(id, metadata, bootstrap(),
                    config.metadataVoters().contains(id)), MetaBootstrap::close);
        } else {
            resources.run(StartupStep.JOIN, () -> propose(metadata, new MetaCommand.AddMember(new Member(id,
                    config.self().role().label(), config.self().hostPort(), MemberState.JOINING))));
        }
        NodeRules rules = resources.open(StartupStep.RULES, this::rules, NodeRules::close);
        NodeContext ctx = new NodeContext(config.self(), members, metadata, directory, peers, queue,
                metrics, rules, config.limits(), config.get(NodeConfigKeys.HOP_LIMIT),
                config.get(NodeConfigKeys.MAX_RESPONSE_BYTES), config::logNodesOf,
                Duration.ofMillis(config.get(NodeConfigKeys.METADATA_TIMEOUT_MS)));
        NodeRole role = logNode ? LogRole.open(resources, ctx, ledgers)
                : DataRole.open(resources, config, ctx, storage);
        Failures failures = resources.open(StartupStep.FAILURES, () -> failures(ctx, role), Failures::close);
        RequestDispatcher dispatcher = new RequestDispatcher(ctx, role, failures);
        NodeServer server = serve ? resources.open(StartupStep.SERVER, () -> bind(group, dispatcher, security, members),
                NodeServer::stop) : null;
        resources.open(StartupStep.METRICS, () -> metricsEndpoint(group, registry), e -> {
            if (e != null) {
                e.close();
            }
        });
        resources.run(StartupStep.BACKGROUND, () -> startBackground(role, dispatcher, failures));
        Member me = metadata.current().member(id);
        if (joining && me != null && me.state() == MemberState.JOINING) {
            resources.run(StartupStep.JOINED, () -> propose(metadata, new MetaCommand.SetMemberState(id,
                    MemberState.JOINING, MemberState.UP)));
        }
        return new Assembled(resources, ctx, role, dispatcher, server);
    }

    private static void startBackground(NodeRole role, RequestDispatcher dispatcher, Failures failures) {
        role.start(() -> dispatcher.selfStatus(true));
        failures.start();
    }

    private String directoryKind(String id) {
        return config.self().role() == ClusterMember.Role.LOG ? Directory.range(id).kind()
                : givenStore != null ? config.directory()
                : StoredDirectoryKind.effective(id, config.dataDir(), config.directory());
    }

    /** Failure detection on every node; failover coordination on a data node. */
    private Failures failures(NodeContext ctx, NodeRole role) {
        boolean data = role.role() == ClusterMember.Role.DATA;
        return new Failures(ctx.nodeId(), ctx.metadata(), ctx.peers(), new Failures.Settings(
                config.get(NodeConfigKeys.FAILURE_HEARTBEAT_MS), config.get(NodeConfigKeys.FAILURE_SUSPECT_MS),
                ctx.metadataTimeout()), ctx.rules()::suspect, data ? ctx.rules()::failover : null, role);
    }

    /** Commits a change this start-up needs, or fails the start-up saying what was refused. */
    private void propose(Metadata metadata, MetaCommand command) {
        Duration timeout = Duration.ofMillis(config.get(NodeConfigKeys.METADATA_TIMEOUT_MS));
        CommandResult r = metadata.submit(command, timeout).join();
        if (!r.applied()) {
            throw new IllegalStateException("node " + config.nodeId() + ": the cluster refused "
                    + command.getClass().getSimpleName() + ": " + r.refusal());
        }
        LOG.info("{}: {} committed (metadata v{})", config.nodeId(), command, r.version());
    }

    /** Prometheus's registry (with the JVM's meters) when the endpoint is on, else a plain one. */
    private MeterRegistry registry() {
        if (config.get(NodeConfigKeys.METRICS_HTTP_PORT) == 0) {
            return new SimpleMeterRegistry();
        }
        PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        prometheus.config().namingConvention(new PrometheusNames());
        new JvmMemoryMetrics().bindTo(prometheus);
        new JvmThreadMetrics().bindTo(prometheus);
        new ProcessorMetrics().bindTo(prometheus);
        new UptimeMetrics().bindTo(prometheus);
        return prometheus;
    }

    private MetricsEndpoint metricsEndpoint(EventLoopGroup group, MeterRegistry registry) {
        int port = config.get(NodeConfigKeys.METRICS_HTTP_PORT);
        if (port == 0 || !serve) {
            return null;
        }
        try {
            return MetricsEndpoint.start(config.nodeId(), new InetSocketAddress(config.listenAddress().getAddress(),
                    port), group, (PrometheusMeterRegistry) registry);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("node " + config.nodeId() + ": interrupted while binding metrics", e);
        }
    }

    /**
     * The directory this node runs ({@link StoredDirectoryKind}); a log node routes by the range table. A data node
     * under the Fat-Btree keeps its index copies in {@code <data-dir>/index} and takes them up again on restart; a
     * node handed its store (in-process test clusters) keeps them in memory.
     */
    private Directory directory(String id, PeerChannel peers) {
        if (!FatBtrees.KIND.equals(directoryKind)) {
            return Directory.range(id);
        }
        return FatBtrees.overPeers(id, config.directoryFanout(), peers,
                givenStore != null ? null : config.dataDir().resolve(INDEX_DIR));
    }

    /**
     * Warns that a Fat-Btree data node whose earlier start left metadata has no index copies: it takes them up from
     * its peers (the directory's page fetch), as after losing its {@code index/} directory.
     */
    private void warnLostIndex(String id) {
        if (FatBtrees.KIND.equals(directoryKind) && givenStore == null
                && config.self().role() != ClusterMember.Role.LOG
                && Files.isDirectory(config.dataDir().resolve("meta"))
                && !Files.isDirectory(config.dataDir().resolve(INDEX_DIR))) {
            LOG.warn("{}: {} holds the metadata of an earlier start but no index copies ({}/): this node takes its "
                    + "copies up again from the other data nodes", id, config.dataDir(), INDEX_DIR);
        }
    }

    private Metadata metadata() {
        return givenMetadata != null ? givenMetadata.apply(config) : Metadata.ratis(config.metadataSettings());
    }

    private MetaCommand.Bootstrap bootstrap() {
        List<Member> members = config.members().stream().map(m -> new Member(m.id(), m.role().label(), m.hostPort(),
                MemberState.UP)).toList();
        String kind = config.get(NodeConfigKeys.DIRECTORY);
        return MetaBootstrap.command(kind, FatBtrees.KIND.equals(kind) ? config.directoryFanout() : 0, members,
                config.dataNodes(), config.splitPoints(), config::logNodesOf);
    }

    /** The cluster proof and TLS contexts, checked before anything is opened. */
    private record Security(NodeAuth auth, SslContext serverTls, SslContext clientTls) {
    }

    private Security security() {
        String secret = config.clusterSecret();
        NodeAuth auth = secret == null ? null : NodeAuth.of(secret);
        if (!config.get(NodeConfigKeys.TLS_ENABLED)) {
            return new Security(auth, null, null);
        }
        try {
            SslContext server = Tls.server(Path.of(config.get(NodeConfigKeys.TLS_KEY_STORE)),
                    config.get(NodeConfigKeys.TLS_KEY_STORE_PASSWORD).toCharArray());
            String trust = config.get(NodeConfigKeys.TLS_TRUST_STORE);
            SslContext client = Tls.client(trust.isBlank() ? null : Path.of(trust),
                    config.get(NodeConfigKeys.TLS_TRUST_STORE_PASSWORD).toCharArray(),
                    config.get(NodeConfigKeys.TLS_VERIFY_HOSTNAME));
            return new Security(auth, server, client);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("node " + config.nodeId() + ": " + e.getMessage(), e);
        }
    }

    private EventLoopGroup eventLoops() {
        return new MultiThreadIoEventLoopGroup(config.get(NodeConfigKeys.IO_THREADS),
                Thread.ofPlatform().name(config.nodeId() + "-io-", 0).daemon().factory(), NioIoHandler.newFactory());
    }

    private PeerChannel nettyPeers(EventLoopGroup group, Security security, LiveMembers members) {
        Function<String, InetSocketAddress> addresses = peer -> peer.equals(config.nodeId()) ? null
                : members.address(peer);
        return PeerChannels.netty(new PeerChannels.Settings(config.nodeId(), addresses, group, security.clientTls(),
                security.auth(), Duration.ofMillis(config.get(NodeConfigKeys.CONNECT_TIMEOUT_MS)),
                Duration.ofMillis(config.get(NodeConfigKeys.FORWARD_TIMEOUT_MS))));
    }

    private NodeServer bind(EventLoopGroup group, RequestDispatcher dispatcher, Security security,
            LiveMembers members) {
        Predicate<String> others = peer -> !peer.equals(config.nodeId()) && members.contains(peer);
        try {
            return NodeServer.start(new ServerSettings(config.nodeId(), config.listenAddress(), group,
                    config.limits().maxFrameBytes(), dispatcher, security.serverTls(), security.auth(), others));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("node " + config.nodeId() + ": interrupted while binding", e);
        }
    }

    private void logConfiguration() {
        LOG.info("{}: starting AutoDisk node, role {}, effective configuration:", config.nodeId(),
                config.self().role().label());
        config.effective().forEach((k, v) -> LOG.info("{}:   {} = {}", config.nodeId(), k, v));
    }
}
