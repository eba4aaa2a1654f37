package org.autodisk.node.failure;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.Metadata;
import org.autodisk.node.ops.NodeRole;
import org.autodisk.node.ops.OperationHandler;
import org.autodisk.node.peer.PeerChannel;
import org.autodisk.node.wire.Heartbeat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's part in failure handling, on a thread of its own every {@code failure.heartbeat-ms}: its
 * {@link FailureDetector} exchanges heartbeats; on a data node, the {@link FailoverCoordinator} declares failed
 * members and fails them over when this node coordinates; and {@link Rejoin} brings this node back when the cluster
 * declared it failed.
 */
public final class Failures implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Failures.class);

    private final String self;
    private final FailureDetector detector;
    private final FailoverCoordinator coordinator;
    private final Rejoin rejoin;
    private final long heartbeatMs;
    private final ScheduledExecutorService timer;
    private final Metadata metadata;
    private final AtomicBoolean checkQueued = new AtomicBoolean();
    private final Supplier<String> silence;
    /** Why this node keeps silent now ({@code null}: it does not), as the last tick found. */
    private volatile String silent;

    /**
     * Settings.
     *
     * @param heartbeatMs {@code failure.heartbeat-ms}
     * @param suspectMs   {@code failure.suspect-ms} (0: no detection)
     * @param timeout     how long a metadata change may take
     */
    public record Settings(long heartbeatMs, long suspectMs, Duration timeout) {
    }

    /**
     * Creates a node's failure handling; {@link #start} runs it.
     *
     * @param self      this node
     * @param metadata  the metadata
     * @param peers     the peer channel
     * @param settings  the settings
     * @param onSuspect told of each suspicion (node, why): the rules' {@code NodeSuspected}
     * @param rules     the failover rules, on a data node; {@code null} on a log node (it never coordinates)
     * @param role      the node's role: what it drops of ranges that moved on when it rejoins
     *                  ({@link NodeRole#dropStale}), what it does when a promotion it proposed committed (a balance
     *                  round to fill backups), and why it keeps silent now ({@link NodeRole#silenced}: it then
     *                  sends and answers no heartbeat and coordinates nothing, so that the others declare it failed)
     */
    public Failures(String self, Metadata metadata, PeerChannel peers, Settings settings,
            BiConsumer<String, String> onSuspect, FailoverCoordinator.Rules rules, NodeRole role) {
        this.self = self;
        this.silence = role::silenced;
        Predicate<MetaState> dropStale = role::dropStale;
        Runnable promoted = role::afterFailover;
        this.metadata = metadata;
        this.heartbeatMs = settings.heartbeatMs();
        this.detector = new FailureDetector(self, metadata::current, peers, settings.heartbeatMs(),
                settings.suspectMs(), System::nanoTime, onSuspect);
        this.coordinator = rules == null ? null : new FailoverCoordinator(self, metadata, detector, rules,
                settings.timeout(), System::nanoTime, promoted);
        this.rejoin = new Rejoin(self, metadata, detector, dropStale, settings.timeout());
        this.timer = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().name(self + "-failures")
                .daemon().factory());
    }

    /**
     * Starts the heartbeats and checks; a metadata change (a member declared failed, say) is checked at once rather
     * than at the next heartbeat.
     */
    public void start() {
        timer.scheduleWithFixedDelay(this::tick, heartbeatMs, heartbeatMs, TimeUnit.MILLISECONDS);
        metadata.subscribe(s -> {
            if (checkQueued.compareAndSet(false, true)) {
                try {
                    timer.execute(this::checkNow);
                } catch (RejectedExecutionException e) {
                    checkQueued.set(false);
                }
            }
        });
    }

    private void checkNow() {
        checkQueued.set(false);
        checks();
    }

    private void tick() {
        if (silent()) {
            return;
        }
        try {
            detector.tick();
        } catch (RuntimeException e) {
            LOG.error("{}: heartbeats failed; sent again at the next period", self, e);
        }
        checks();
    }

    /** Whether this node keeps silent now; says so when that changes. */
    private boolean silent() {
        String why;
        try {
            why = silence.get();
        } catch (RuntimeException e) {
            LOG.error("{}: could not tell whether this node should keep silent", self, e);
            why = null;
        }
        if (why != null && silent == null) {
            LOG.error("{}: {}: this node stops its heartbeats, so that the others declare it failed and fail its "
                    + "ranges over to their backups", self, why);
        } else if (why == null && silent != null) {
            LOG.warn("{}: the cause of the silence is gone; heartbeats resume (a node declared failed meanwhile "
                    + "drops what moved on and rejoins)", self);
            detector.silenceEnded();
        }
        silent = why;
        return why != null;
    }

    private void checks() {
        if (silent != null) {
            return;
        }
        try {
            if (coordinator != null) {
                coordinator.check();
            }
            rejoin.check();
        } catch (RuntimeException e) {
            LOG.error("{}: failure check failed; tried again at the next heartbeat", self, e);
        }
    }

    /**
     * Returns the detector (status shows what it heard).
     *
     * @return the detector
     */
    public FailureDetector detector() {
        return detector;
    }

    /**
     * Returns the handler of HEARTBEAT: takes the sender's heartbeat and answers this node's.
     *
     * @return the handler
     */
    public OperationHandler heartbeatHandler() {
        return request -> {
            String why = silent;
            if (why != null) {
                request.replyError(Status.NODE_UNAVAILABLE, self + " keeps silent: " + why);
                return;
            }
            Heartbeat hb = Heartbeat.decode(request.frame().body());
            request.action("heartbeat");
            request.reply(detector.answer(hb).encodeAnswer());
        };
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
