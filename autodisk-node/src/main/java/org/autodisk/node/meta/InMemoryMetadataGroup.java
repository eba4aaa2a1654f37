package org.autodisk.node.meta;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * The metadata of an in-memory cluster (tests): one log applied at once, in order, under one lock, and every
 * member's view told of each change. Fault hooks: {@link #available} (no majority: proposals fail),
 * {@link #holdUpdates} (one member falls behind: it keeps its last state until released) and {@link #holdProposals}
 * (proposals of some kind wait, uncommitted, until released or dropped).
 */
public final class InMemoryMetadataGroup {

    private final Map<String, View> views = new ConcurrentHashMap<>();
    private MetaState state = MetaState.EMPTY;
    private long index;
    private volatile boolean available = true;
    private volatile Predicate<MetaCommand> holding = c -> false;
    private final List<Held> heldProposals = new ArrayList<>();
    private final Map<Class<?>, Integer> proposed = new ConcurrentHashMap<>();

    /**
     * Returns a member's view of the metadata.
     *
     * @param nodeId the member
     * @return its view (the same one on every call)
     */
    public Metadata member(String nodeId) {
        return views.computeIfAbsent(nodeId, View::new);
    }

    /**
     * Tells how often a member asked how far the leader committed ({@link Metadata#committedVersion}).
     *
     * @param nodeId the member
     * @return how many times
     */
    public int committedVersionAsks(String nodeId) {
        return ((View) member(nodeId)).asks.get();
    }

    /**
     * Fault hook: makes proposals fail as without a majority of voters, or work again.
     *
     * @param yes false to fail every proposal
     */
    public void available(boolean yes) {
        this.available = yes;
    }

    /**
     * Fault hook: holds back a member's updates (it keeps routing with its last state), or releases them.
     *
     * @param nodeId the member
     * @param hold   true to hold, false to deliver the latest state and follow again
     */
    public void holdUpdates(String nodeId, boolean hold) {
        View v = (View) member(nodeId);
        synchronized (this) {
            v.held = hold;
            if (!hold) {
                v.take(new Applied(null, v.seen, state));
            }
        }
        v.drain();
    }

    /**
     * Fault hook: proposals the predicate matches wait uncommitted (their futures do not complete) until
     * {@link #releaseProposals}, as when a commit is slow.
     *
     * @param which the proposals to hold
     */
    public void holdProposals(Predicate<MetaCommand> which) {
        holding = which;
    }

    /** Stops holding proposals and commits the held ones, in the order they came. */
    public void releaseProposals() {
        takeHeld().forEach(h -> h.result().complete(apply(h.entry())));
    }

    /** Stops holding proposals and drops the held ones, as when their proposer crashed before they committed. */
    public void dropProposals() {
        takeHeld().forEach(h -> h.result().completeExceptionally(new MetadataException("the proposal was dropped "
                + "(in-memory group's fault hook)", null)));
    }

    /**
     * Test hook: how many commands of a kind were proposed to the group (committed or not, applied or refused).
     *
     * @param kind the command's class
     * @return how many
     */
    public int proposals(Class<? extends MetaCommand> kind) {
        return proposed.getOrDefault(kind, 0);
    }

    private List<Held> takeHeld() {
        holding = c -> false;
        synchronized (heldProposals) {
            List<Held> now = List.copyOf(heldProposals);
            heldProposals.clear();
            return now;
        }
    }

    private record Held(MetaEntry entry, CompletableFuture<CommandResult> result) {
    }

    private synchronized MetaState current() {
        return state;
    }

    /**
     * Applies one command; every view takes it under the group's lock (so each takes the commands in log order)
     * and tells its listeners after it (so no listener runs under a lock).
     */
    private CommandResult apply(MetaEntry entry) {
        MetaTransitions.Outcome outcome;
        synchronized (this) {
            MetaState before = state;
            outcome = MetaTransitions.apply(state, ++index, entry.command());
            state = outcome.state();
            if (outcome.result().applied()) {
                views.values().forEach(v -> v.take(new Applied(entry.command(), before, outcome.state())));
            }
        }
        views.values().forEach(View::drain);
        return outcome.result();
    }

    /** One member's view. */
    private final class View implements Metadata {
        private final String nodeId;
        private final MetaListeners listeners;
        private volatile MetaState seen = MetaState.EMPTY;
        private volatile boolean held;
        private final Queue<Applied> pending = new ConcurrentLinkedQueue<>();
        private final AtomicBoolean telling = new AtomicBoolean();
        private final VersionWaiters waiters;
        private final Histogram applyLag = new ConcurrentHistogram(3);
        private final AtomicInteger asks = new AtomicInteger();

        View(String nodeId) {
            this.nodeId = nodeId;
            this.listeners = new MetaListeners(nodeId);
            this.seen = InMemoryMetadataGroup.this.current();
            this.waiters = new VersionWaiters(nodeId);
            waiters.accept(seen);
        }

        /**
         * Takes an applied command: the view reads its state at once, its listeners are told in order by
         * {@link #drain}. A command that does not follow the last one taken becomes a gap. No lock is held while a
         * listener runs, as Ratis tells them on its one apply thread: a listener that takes its own lock (a data
         * node's range logs) while another thread of the same node proposes under that lock would otherwise deadlock
         * against this view's lock.
         */
        synchronized void take(Applied a) {
            if (held || a.after().version() <= seen.version() && seen.bootstrapped()) {
                return;
            }
            Applied next = a.before().version() == seen.version() ? a : new Applied(null, seen, a.after());
            seen = a.after();
            pending.add(next);
        }

        /**
         * Tells the listeners, then the version waiters, of each pending command in order, on the thread that finds
         * none other telling them; a proposal made from inside a listener is told after that listener returns.
         */
        void drain() {
            while (!pending.isEmpty() && telling.compareAndSet(false, true)) {
                try {
                    for (Applied a = pending.poll(); a != null; a = pending.poll()) {
                        listeners.tell(a);
                        waiters.accept(a.after());
                    }
                } finally {
                    telling.set(false);
                }
            }
        }

        @Override
        public MetaState current() {
            return seen;
        }

        @Override
        public void subscribe(Consumer<MetaState> listener) {
            listeners.onStates(listener);
            listener.accept(seen);
        }

        @Override
        public void subscribeCommands(Consumer<Applied> listener) {
            listeners.onCommands(listener);
        }

        @Override
        public CompletableFuture<MetaState> awaitVersion(long version, Duration timeout) {
            return waiters.await(version, timeout);
        }

        @Override
        public CompletableFuture<Long> committedVersion(Duration timeout) {
            asks.incrementAndGet();
            if (!available) {
                return CompletableFuture.failedFuture(new MetadataException("no leader of the metadata answered "
                        + "(in-memory group made unavailable)", null));
            }
            return CompletableFuture.completedFuture(InMemoryMetadataGroup.this.current().version());
        }

        @Override
        public CompletableFuture<CommandResult> submit(MetaCommand command, Duration deadline) {
            if (!available) {
                return CompletableFuture.failedFuture(new MetadataException("the metadata change was not "
                        + "committed within " + deadline.toMillis() + " ms: no majority of the voters answered "
                        + "(in-memory group made unavailable)", null));
            }
            proposed.merge(command.getClass(), 1, Integer::sum);
            MetaEntry entry = new MetaEntry(command, nodeId, MetaEntry.nowMicros());
            if (holding.test(command)) {
                CompletableFuture<CommandResult> later = new CompletableFuture<>();
                synchronized (heldProposals) {
                    heldProposals.add(new Held(entry, later));
                }
                return later;
            }
            return CompletableFuture.completedFuture(apply(entry));
        }

        @Override
        public Histogram applyLag() {
            return applyLag;
        }

        @Override
        public MetadataStatus status() {
            return new MetadataStatus("in-memory", null, 0, seen.version(), seen.version(), "",
                    seen.members().stream().filter(m -> "data".equals(m.role())).map(Member::id).limit(3).toList(),
                    List.of());
        }

        @Override
        public void close() {
            listeners.clear();
        }
    }
}
