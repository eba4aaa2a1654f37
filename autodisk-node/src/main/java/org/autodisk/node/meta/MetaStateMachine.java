package org.autodisk.node.meta;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.storage.FileInfo;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.statemachine.impl.SimpleStateMachineStorage;
import org.apache.ratis.statemachine.impl.SingleFileSnapshotInfo;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.util.LifeCycle;
import org.apache.ratis.util.MD5FileUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The metadata's replicated state machine for Ratis: every replica - voter or listener - applies the committed
 * {@link MetaEntry}s in log order with {@link MetaTransitions}, answers each with its {@link CommandResult}, tells
 * its listeners of every change, and writes the whole state as one JSON file when Ratis asks for a snapshot (and
 * reads the latest at start).
 */
final class MetaStateMachine extends BaseStateMachine {

    private static final Logger LOG = LoggerFactory.getLogger(MetaStateMachine.class);
    /** A read-only query asking for the version only (else the whole state is answered). */
    static final ByteString VERSION_QUERY = ByteString.copyFromUtf8("version");

    private final String nodeId;
    private final SimpleStateMachineStorage storage = new SimpleStateMachineStorage();
    private final MetaListeners listeners;
    private volatile Consumer<MetaState> last;
    private final Histogram applyLag;
    private volatile MetaState state = MetaState.EMPTY;
    private final long startedMicros = MetaEntry.nowMicros();
    private final MetaState resumed;
    private final long resumedIndex;
    private final BeforeApply beforeApply;
    private final AppliedWaits waits = new AppliedWaits();
    /** Held while an applied change is made and announced, so that {@link #freeze} sees both or neither. */
    private final ReentrantLock announcing = new ReentrantLock();
    private boolean frozen;

    /**
     * A fault hook called before each committed entry is applied; what it throws fails the apply, and Ratis then
     * closes the replica (tests of the replica opened again).
     */
    @FunctionalInterface
    interface BeforeApply {
        /** No fault. */
        BeforeApply NONE = index -> { };

        /**
         * Called before the entry at this log index is applied.
         *
         * @param index the entry's log index
         */
        void before(long index);
    }

    MetaStateMachine(String nodeId) {
        this(nodeId, new MetaListeners(nodeId), new ConcurrentHistogram(3), MetaState.EMPTY, -1, BeforeApply.NONE);
    }

    /**
     * A state machine that takes over from an earlier one of the same replica, whose Raft server closed: it tells
     * the listeners nothing and shows the earlier state until it has applied past the earlier one's last index (it
     * replays from its own snapshot and log what the listeners were told already), then goes on as usual.
     *
     * @param nodeId       this node
     * @param listeners    the listeners, shared with the earlier state machine
     * @param applyLag     the apply lag histogram, shared
     * @param resumed      the earlier state machine's last state ({@link MetaState#EMPTY} for none)
     * @param resumedIndex the log index it had applied ({@code -1} for none)
     * @param beforeApply  the fault hook
     */
    MetaStateMachine(String nodeId, MetaListeners listeners, Histogram applyLag, MetaState resumed, long resumedIndex,
            BeforeApply beforeApply) {
        this.nodeId = nodeId;
        this.listeners = listeners;
        this.applyLag = applyLag;
        this.resumed = resumed;
        this.resumedIndex = resumedIndex;
        this.beforeApply = beforeApply;
    }

    @Override
    public void initialize(RaftServer server, RaftGroupId groupId, RaftStorage raftStorage) throws IOException {
        getLifeCycle().startAndTransition(() -> {
            super.initialize(server, groupId, raftStorage);
            storage.init(raftStorage);
            load(storage.getLatestSnapshot());
        }, IOException.class);
    }

    /**
     * Pauses before Ratis installs a snapshot the leader sent (this replica was behind the leader's purged log):
     * Ratis then calls {@link #reinitialize()}, and fails the replica for good unless the state machine said it paused.
     */
    @Override
    public synchronized void pause() {
        if (getLifeCycleState() == LifeCycle.State.RUNNING) {
            getLifeCycle().transition(LifeCycle.State.PAUSING);
            getLifeCycle().transition(LifeCycle.State.PAUSED);
        }
    }

    /** Loads the newest snapshot on disk - the one just installed, not the one read at start - and runs again. */
    @Override
    public void reinitialize() throws IOException {
        load(storage.loadLatestSnapshot());
        synchronized (this) {
            if (getLifeCycleState() == LifeCycle.State.PAUSED) {
                getLifeCycle().transition(LifeCycle.State.STARTING);
                getLifeCycle().transition(LifeCycle.State.RUNNING);
            }
        }
    }

    private void load(SingleFileSnapshotInfo snapshot) throws IOException {
        if (snapshot == null || !Files.exists(snapshot.getFile().getPath())) {
            return;
        }
        MetaState loaded = MetaCodec.read(Files.readAllBytes(snapshot.getFile().getPath()), MetaState.class);
        MetaState before;
        announcing.lock();
        try {
            synchronized (this) {
                if (frozen) {
                    throw new IOException("node " + nodeId + ": this metadata state machine was replaced");
                }
                before = state();
                state = loaded;
                updateLastAppliedTermIndex(snapshot.getTermIndex());
            }
            LOG.info("{}: metadata snapshot loaded: version {}, {} ranges, {} members", nodeId, loaded.version(),
                    loaded.ranges().size(), loaded.members().size());
            if (snapshot.getIndex() > resumedIndex) {
                announce(new Applied(null, before, loaded));
            }
        } finally {
            announcing.unlock();
        }
    }

    @Override
    public CompletableFuture<Message> applyTransaction(TransactionContext trx) {
        LogEntryProto entry = trx.getLogEntry();
        MetaEntry e = MetaCodec.read(entry.getStateMachineLogEntry().getLogData().toByteArray(), MetaEntry.class);
        beforeApply.before(entry.getIndex());
        MetaTransitions.Outcome outcome;
        announcing.lock();
        try {
            MetaState before;
            synchronized (this) {
                if (frozen) {
                    return CompletableFuture.failedFuture(new IllegalStateException("node " + nodeId
                            + ": this metadata state machine was replaced"));
                }
                before = state;
                outcome = MetaTransitions.apply(state, entry.getIndex(), e.command());
                state = outcome.state();
                updateLastAppliedTermIndex(entry.getTerm(), entry.getIndex());
            }
            if (e.proposedAtMicros() >= startedMicros) {
                applyLag.recordValue(Math.max(0, MetaEntry.nowMicros() - e.proposedAtMicros()) * 1000);
            }
            if (outcome.result().applied() && entry.getIndex() > resumedIndex) {
                announce(new Applied(e.command(), before, outcome.state()));
            }
        } finally {
            announcing.unlock();
        }
        return CompletableFuture.completedFuture(Message.valueOf(ByteString.copyFrom(
                MetaCodec.write(outcome.result()))));
    }

    /**
     * Stops this state machine for good, once its Raft server closed and before another takes over: it applies and
     * announces nothing more (an apply under way finishes telling its listeners first), and says where it stopped.
     *
     * @return its last state and the log index of it (the earlier machine's while this one was still replaying)
     */
    Resumed freeze() {
        announcing.lock();
        try {
            synchronized (this) {
                frozen = true;
                long applied = appliedIndex();
                return applied < resumedIndex ? new Resumed(resumed, resumedIndex) : new Resumed(state, applied);
            }
        } finally {
            announcing.unlock();
        }
    }

    /**
     * Where a state machine stopped: the state it showed and the log index of it.
     *
     * @param state the state
     * @param index its log index ({@code -1}: none)
     */
    record Resumed(MetaState state, long index) {
    }

    private void announce(Applied applied) {
        MetaState s = applied.after();
        listeners.tell(applied);
        Consumer<MetaState> after = last;
        if (after != null) {
            after.accept(s);
        }
    }

    /**
     * Sets the listener told of every state after all the others (the version waiters: a completed wait then
     * means every other listener, the directory among them, has the state).
     *
     * @param listener the listener
     */
    void afterListeners(Consumer<MetaState> listener) {
        last = listener;
        listener.accept(state());
    }

    @Override
    public long takeSnapshot() throws IOException {
        MetaState s;
        TermIndex applied;
        synchronized (this) {
            s = state;
            applied = getLastAppliedTermIndex();
        }
        File file = storage.getSnapshotFile(applied.getTerm(), applied.getIndex());
        File tmp = new File(file.getPath() + ".tmp");
        Files.write(tmp.toPath(), MetaCodec.write(s));
        Files.move(tmp.toPath(), file.toPath(), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        FileInfo info = new FileInfo(file.toPath(), MD5FileUtil.computeAndSaveMd5ForFile(file));
        storage.updateLatestSnapshot(new SingleFileSnapshotInfo(info, applied));
        LOG.debug("{}: metadata snapshot at index {}", nodeId, applied.getIndex());
        return applied.getIndex();
    }

    @Override
    public SimpleStateMachineStorage getStateMachineStorage() {
        return storage;
    }

    @Override
    public CompletableFuture<Message> query(Message request) {
        MetaState state = state();
        if (VERSION_QUERY.equals(request.getContent())) {
            // asked of the leader: once it applied its whole commit index, so that the answer covers every change
            // committed before the question, also just after an election
            return waits.await(commitIndex()).thenApply(v -> Message.valueOf(ByteString.copyFrom(ByteBuffer
                    .allocate(Long.BYTES).putLong(state().version()).array())));
        }
        return CompletableFuture.completedFuture(Message.valueOf(ByteString.copyFrom(MetaCodec.write(state))));
    }

    /** This replica's commit index ({@code -1} if unknown): a leader's covers every entry committed before. */
    private long commitIndex() {
        RaftServer server = getServer().getNow(null);
        if (server == null) {
            return -1;
        }
        try {
            return server.getDivision(getGroupId()).getRaftLog().getLastCommittedIndex();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    @Override
    protected boolean updateLastAppliedTermIndex(long term, long index) {
        boolean updated = super.updateLastAppliedTermIndex(term, index);
        waits.applied(index);
        return updated;
    }

    @Override
    protected boolean updateLastAppliedTermIndex(TermIndex termIndex) {
        boolean updated = super.updateLastAppliedTermIndex(termIndex);
        waits.applied(termIndex.getIndex());
        return updated;
    }

    /** The state: the earlier state machine's while this one replays what that one had applied. */
    MetaState state() {
        return appliedIndex() < resumedIndex ? resumed : state;
    }

    /**
     * Returns the log index of the last entry applied, or of the snapshot loaded.
     *
     * @return the index, {@code -1} for none
     */
    long appliedIndex() {
        TermIndex applied = getLastAppliedTermIndex();
        return applied == null ? -1 : applied.getIndex();
    }

    MetaListeners listeners() {
        return listeners;
    }

    void subscribe(Consumer<MetaState> listener) {
        listeners.onStates(listener);
        listener.accept(state());
    }

    void subscribeCommands(Consumer<Applied> listener) {
        listeners.onCommands(listener);
    }

    Histogram applyLag() {
        return applyLag;
    }
}
