package org.autodisk.node.meta;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.proto.RaftProtos.RaftPeerRole;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.protocol.exceptions.AlreadyClosedException;
import org.apache.ratis.protocol.exceptions.RaftRetryFailureException;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.util.LifeCycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The metadata replica of one node on Apache Ratis: voters elect a leader and commit; every other member follows
 * the log as a Ratis listener, so every node applies every committed change to its own copy. Proposals go through
 * a Ratis client with a bounded retry policy and a deadline, so that no caller waits for ever without a majority.
 * Snapshots are taken automatically and the log and older snapshots behind them are removed.
 */
final class RatisMetadata implements Metadata {

    private static final Logger LOG = LoggerFactory.getLogger(RatisMetadata.class);
    private static final int READ_RETRIES = 3;
    private static final long REOPEN_FIRST_MS = 1000;
    private static final long REOPEN_MAX_MS = 60_000;

    private final MetadataSettings settings;
    private final RaftGroup group;
    private volatile RaftServer server;
    private volatile RaftClient client;
    private RaftClient reader;
    private boolean stopped;
    private volatile MetaStateMachine machine;
    private final VersionWaiters waiters;
    private final MetaStateMachine.BeforeApply hook;
    private final ScheduledExecutorService watch;
    private long reopenWaitMs = REOPEN_FIRST_MS;
    private long reopenAt;
    private boolean backingOff;
    private volatile int reopened;

    private RatisMetadata(MetadataSettings settings, RaftGroup group, RaftServer server, RaftClient client,
            MetaStateMachine machine, MetaStateMachine.BeforeApply hook) {
        this.settings = settings;
        this.group = group;
        this.server = server;
        this.client = client;
        this.machine = machine;
        this.hook = hook;
        this.waiters = new VersionWaiters(settings.nodeId());
        machine.afterListeners(waiters);
        this.watch = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, settings.nodeId() + "-metadata-watch");
            t.setDaemon(true);
            return t;
        });
        watch.scheduleWithFixedDelay(this::reopenIfClosed, REOPEN_FIRST_MS, REOPEN_FIRST_MS, TimeUnit.MILLISECONDS);
    }

    static RatisMetadata start(MetadataSettings s) {
        return start(s, MetaStateMachine.BeforeApply.NONE);
    }

    /**
     * Starts the replica.
     *
     * @param s    where it runs
     * @param hook the fault hook called before every apply (tests)
     * @return the running replica
     */
    static RatisMetadata start(MetadataSettings s, MetaStateMachine.BeforeApply hook) {
        MetaStateMachine machine = new MetaStateMachine(s.nodeId(), new MetaListeners(s.nodeId()),
                new ConcurrentHistogram(3), MetaState.EMPTY, -1, hook);
        RaftServer server = null;
        try {
            Files.createDirectories(s.dir());
            RaftGroup group = RatisSetup.group(s);
            server = RatisSetup.server(s, group, machine);
            server.start();
            // bounded: a proposal is retried (leader changes, no leader yet) for about the request timeout at most
            RaftClient client = RatisSetup.newClient(s, group);
            if (s.join()) {
                RatisSetup.joinGroup(s, client);
            }
            LOG.info("{}: metadata replica on {}:{} ({}), voters {}, group {}", s.nodeId(), s.bindHost(), s.port(),
                    s.voters().contains(s.nodeId()) ? "voter" : "listener", s.voters(), group.getGroupId());
            return new RatisMetadata(s, group, server, client, machine, hook);
        } catch (IOException | RuntimeException e) {
            closeQuietly(server);
            throw new MetadataException("node " + s.nodeId() + ": cannot start the metadata replica on port "
                    + s.port() + " with its storage in " + s.dir() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Opens the replica again if its Raft server closed while the node runs (Ratis closes it when applying an entry
     * or installing a snapshot fails, or after a JVM pause past its close threshold): a node must not stay on an old
     * version for good. The new server recovers from the same storage, with a state machine that shows the last
     * state until it has replayed that far; a failed attempt is tried again after twice the wait, up to a minute.
     */
    private void reopenIfClosed() {
        try {
            long now = System.nanoTime();
            if (alive()) {
                if (backingOff && now - reopenAt > TimeUnit.MILLISECONDS.toNanos(REOPEN_MAX_MS)) {
                    reopenWaitMs = REOPEN_FIRST_MS; // up for a while since the last opening
                    backingOff = false;
                }
                return;
            }
            if (backingOff && now - reopenAt < 0) {
                return;
            }
            backingOff = true;
            // the next opening waits twice as long, whether this one works or not: an apply that fails every time
            // would otherwise close the opened replica again at once, and open it again every second for good
            reopenAt = now + TimeUnit.MILLISECONDS.toNanos(reopenWaitMs);
            reopenWaitMs = Math.min(REOPEN_MAX_MS, reopenWaitMs * 2);
            reopen();
        } catch (IOException | RuntimeException e) {
            LOG.error("{}: opening the metadata replica again failed; next try in {} ms", settings.nodeId(),
                    TimeUnit.NANOSECONDS.toMillis(reopenAt - System.nanoTime()), e);
        }
    }

    private void reopen() throws IOException {
        MetaStateMachine old = machine;
        RaftServer.Division division = null;
        try {
            division = server.getDivision(group.getGroupId());
        } catch (IOException e) {
            LOG.debug("{}: the closed replica's division: {}", settings.nodeId(), e.toString());
        }
        closeQuietly(server);
        awaitClosed(division); // closing may be under way on another thread: its storage lock goes last
        MetaStateMachine.Resumed at = old.freeze(); // nothing more from it, even if its updater still runs
        LOG.error("{}: the metadata replica closed (see the errors before); opening it again from {} at index {}, "
                + "version {}", settings.nodeId(), settings.dir(), at.index(), at.state().version());
        MetaStateMachine fresh = new MetaStateMachine(settings.nodeId(), old.listeners(), old.applyLag(), at.state(),
                at.index(), hook);
        RaftServer s = RatisSetup.server(settings, group, fresh);
        try {
            s.start();
        } catch (IOException | RuntimeException e) {
            closeQuietly(s); // else its storage lock and threads stay, and every later try fails on them
            throw e;
        }
        synchronized (this) {
            if (stopped) {
                closeQuietly(s);
                return;
            }
            server = s;
            machine = fresh;
        }
        fresh.afterListeners(waiters);
        reopened++;
        LOG.info("{}: the metadata replica is open again ({} time(s))", settings.nodeId(), reopened);
    }

    private void awaitClosed(RaftServer.Division division) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (division != null && division.getInfo().getLifeCycleState() != LifeCycle.State.CLOSED
                && System.nanoTime() < deadline) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private boolean alive() {
        synchronized (this) {
            if (stopped) {
                return true;
            }
        }
        try {
            return server.getDivision(group.getGroupId()).getInfo().isAlive();
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Returns how many times the replica was opened again after its Raft server closed.
     *
     * @return the count
     */
    int reopened() {
        return reopened;
    }

    /**
     * A Ratis client whose proposal ran out of retries (no majority for longer than the request timeout) fails every
     * later proposal ({@link AlreadyClosedException}: its ordered sliding window keeps the failure); it is replaced, so
     * that changes commit again once a majority is back.
     */
    private synchronized RaftClient renew(RaftClient failed) {
        if (client == failed && !stopped) {
            LOG.info("{}: the metadata client gave up on a proposal; a new one takes over", settings.nodeId());
            client = RatisSetup.newClient(settings, group);
            try {
                failed.close();
            } catch (IOException e) {
                LOG.debug("{}: closing the old metadata client: {}", settings.nodeId(), e.toString());
            }
        }
        return client;
    }

    /**
     * The client of the reads of how far the group committed, with few retries; one whose read ran out of them fails
     * every later read to that peer (its ordered window keeps the failure), so it is replaced.
     */
    private RaftClient reader(RaftClient failed) {
        RaftClient old = null;
        RaftClient now;
        synchronized (this) {
            if (!stopped && (reader == null || reader == failed)) {
                old = reader;
                reader = RatisSetup.newClient(settings, group, READ_RETRIES);
            }
            now = reader;
        }
        closeQuietly(old); // outside the lock: closing waits for its channel
        return now;
    }

    /** Closes a client on a thread of its own, waiting 10 s at most: a proxy's close once hung for good in a test. */
    private static void closeQuietly(RaftClient c) {
        if (c == null) {
            return;
        }
        Thread closing = Thread.ofPlatform().daemon().name("metadata-client-close").start(() -> {
            try {
                c.close();
            } catch (IOException | RuntimeException e) {
                LOG.debug("closing a metadata client: {}", e.toString());
            }
        });
        try {
            closing.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (closing.isAlive()) {
            LOG.warn("closing a metadata client did not end within 10 s; going on without waiting for it");
        }
    }

    private static boolean is(Class<? extends Throwable> kind, Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (kind.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public MetaState current() {
        return machine.state();
    }

    @Override
    public void subscribe(Consumer<MetaState> listener) {
        machine.subscribe(listener);
    }

    @Override
    public void subscribeCommands(Consumer<Applied> listener) {
        machine.subscribeCommands(listener);
    }

    @Override
    public CompletableFuture<MetaState> awaitVersion(long version, Duration timeout) {
        return waiters.await(version, timeout);
    }

    @Override
    public CompletableFuture<Long> committedVersion(Duration timeout) {
        Message ask = Message.valueOf(MetaStateMachine.VERSION_QUERY);
        String leader = status().leader();
        RaftClient through = reader(null);
        if (leader == null || through == null) {
            return CompletableFuture.failedFuture(new MetadataException("node " + settings.nodeId() + ": no leader "
                    + "of the metadata is known to ask how far it committed (" + describe(status()) + ")", null));
        }
        // to the leader itself, whose state machine answers what it applied
        return through.async().sendReadOnly(ask, RaftPeerId.valueOf(leader))
                .orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
                .handle((reply, error) -> {
                    Throwable why = error != null ? error : reply.isSuccess() ? null : reply.getException();
                    if (is(AlreadyClosedException.class, why) || is(RaftRetryFailureException.class, why)) {
                        reader(through);
                    }
                    if (why != null) {
                        throw new MetadataException("node " + settings.nodeId() + ": no leader of the metadata "
                                + "answered how far it committed within " + timeout.toMillis() + " ms ("
                                + describe(status()) + "): " + why, why);
                    }
                    return reply.getMessage().getContent().asReadOnlyByteBuffer().getLong();
                });
    }

    @Override
    public CompletableFuture<CommandResult> submit(MetaCommand command, Duration deadline) {
        MetaEntry entry = new MetaEntry(command, settings.nodeId(), MetaEntry.nowMicros());
        Message message = Message.valueOf(ByteString.copyFrom(MetaCodec.write(entry)));
        // the leader answers once it applied the change; the caller then reads this node's copy, so it waits until
        // that copy has applied it too (read-your-writes for the node that proposed)
        return send(message, client, true).orTimeout(deadline.toMillis(), TimeUnit.MILLISECONDS)
                .handle((reply, error) -> result(command, deadline, reply, error))
                .thenCompose(r -> awaitVersion(r.version(), deadline).thenApply(state -> r));
    }

    /** Sends through a client; one that was closed by an earlier failure is replaced and the proposal sent again. */
    private CompletableFuture<RaftClientReply> send(Message message, RaftClient through, boolean again) {
        return through.async().send(message).handle((reply, error) -> {
            Throwable failure = error != null ? error : reply.isSuccess() ? null : reply.getException();
            boolean neverSent = is(AlreadyClosedException.class, failure);
            if (neverSent || is(RaftRetryFailureException.class, failure)) {
                RaftClient fresh = renew(through);
                if (neverSent && again) {
                    return send(message, fresh, false);
                }
            }
            return error != null ? CompletableFuture.<RaftClientReply>failedFuture(error)
                    : CompletableFuture.completedFuture(reply);
        }).thenCompose(f -> f);
    }

    private CommandResult result(MetaCommand command, Duration deadline, RaftClientReply reply, Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (cause instanceof TimeoutException) {
            throw new MetadataException("the metadata change " + name(command) + " was not committed within "
                    + deadline.toMillis() + " ms: no majority of the voters " + settings.voters() + " answered ("
                    + describe(status()) + "); it may still commit", cause);
        }
        if (cause != null || !reply.isSuccess()) {
            Throwable why = cause != null ? cause : reply.getException();
            throw new MetadataException("the metadata change " + name(command) + " failed: " + why, why);
        }
        return MetaCodec.read(reply.getMessage().getContent().toByteArray(), CommandResult.class);
    }

    private static String name(MetaCommand command) {
        return command.getClass().getSimpleName().toLowerCase(Locale.ROOT);
    }

    private static String describe(MetadataStatus s) {
        return "this node is " + s.role() + (s.leader() == null ? ", no leader known" : ", leader " + s.leader());
    }

    @Override
    public MetadataStatus status() {
        try {
            RaftServer.Division division = server.getDivision(group.getGroupId());
            DivisionInfo info = division.getInfo();
            RaftPeerId leader = info.getLeaderId();
            return new MetadataStatus(info.getCurrentRole().name().toLowerCase(Locale.ROOT),
                    leader == null ? null : leader.toString(), info.getCurrentTerm(), info.getLastAppliedIndex(),
                    machine.state().version(), settings.bindHost() + ":" + settings.port(), settings.voters(),
                    configuration(division.getRaftConf()));
        } catch (IOException e) {
            return new MetadataStatus("stopped", null, 0, 0, machine.state().version(),
                    settings.bindHost() + ":" + settings.port(), settings.voters(), List.of());
        }
    }

    /** The group's configuration as {@code id=voter@host:port} and {@code id=listener@host:port}. */
    private static List<String> configuration(org.apache.ratis.server.RaftConfiguration conf) {
        List<String> out = new java.util.ArrayList<>();
        conf.getCurrentPeers(RaftPeerRole.FOLLOWER).forEach(p -> out.add(p.getId() + "=voter@" + p.getAddress()));
        conf.getCurrentPeers(RaftPeerRole.LISTENER).forEach(p -> out.add(p.getId() + "=listener@" + p.getAddress()));
        return out;
    }

    /**
     * Returns the time from proposal to apply on this replica, in microseconds (wall clocks).
     *
     * @return the histogram
     */
    @Override
    public Histogram applyLag() {
        return machine.applyLag();
    }

    @Override
    public void close() {
        RaftClient read;
        synchronized (this) {
            stopped = true;
            read = reader;
        }
        watch.shutdown(); // an opening under way sees the stop and closes what it opened: wait for it
        try {
            if (!watch.awaitTermination(30, TimeUnit.SECONDS)) {
                LOG.warn("{}: the metadata replica's opening did not end within 30 s", settings.nodeId());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closeQuietly(read);
        closeQuietly(client);
        closeQuietly(server);
    }

    private static void closeQuietly(RaftServer server) {
        if (server == null) {
            return;
        }
        try {
            server.close();
        } catch (IOException e) {
            LOG.warn("closing the metadata replica failed: {}", e.toString());
        }
    }
}
