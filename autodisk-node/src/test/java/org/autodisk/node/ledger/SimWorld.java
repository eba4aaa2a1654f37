package org.autodisk.node.ledger;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;
import org.autodisk.node.meta.CommandResult;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.MetaTransitions;
import org.autodisk.node.meta.Metadata;
import org.autodisk.node.meta.MetadataException;
import org.autodisk.node.meta.MetadataStatus;

/**
 * The simulation's world: a scripted clock (events in time order, ties in scheduling order), one seeded random
 * source, the log nodes, lossy links with per-link FIFO delivery, and the metadata (commands applied in order after
 * a delay; a result may be lost after the command applied). Everything runs on the test's thread. Scenarios script
 * faults on it: a link that loses every message ({@link #cutLink}) or delays them ({@link #delayLink}), a log node's
 * crash and restart, and the fault hooks of its disk ({@link SimDisk}).
 */
final class SimWorld implements LedgerTimer, AutoCloseable {

    /** How long a peer request waits for its answer before it fails (the peer channel's forward.timeout-ms). */
    static final long REQUEST_TIMEOUT_MILLIS = 100;

    private record Event(long time, long seq, Runnable task) {
    }

    final Random random;
    final Map<String, SimLogNode> logNodes = new HashMap<>();
    private final PriorityQueue<Event> events = new PriorityQueue<>((a, b) -> a.time != b.time
            ? Long.compare(a.time, b.time) : Long.compare(a.seq, b.seq));
    private final Map<String, Long> linkClock = new HashMap<>();
    private final Map<String, Long> linkDelay = new HashMap<>();
    private final Set<String> cutLinks = new HashSet<>();
    private long now;
    private long seq;
    double responseLoss;
    double requestLoss;
    final List<String> violations = new ArrayList<>();
    double metadataResultLoss;
    private MetaState state;
    private long index;

    SimWorld(long seed, MetaState initial) {
        this.random = new Random(seed);
        this.state = initial;
        this.index = initial.version();
    }

    long now() {
        return now;
    }

    @Override
    public long nanoTime() {
        return now * 1_000_000L;
    }

    @Override
    public void schedule(long delayMillis, Runnable task) {
        events.add(new Event(now + Math.max(0, delayMillis), seq++, task));
    }

    void runUntil(long time) {
        while (!events.isEmpty() && events.peek().time() <= time) {
            Event e = events.poll();
            now = e.time();
            e.task().run();
        }
        now = Math.max(now, time);
    }

    /**
     * Delivers a message on a link after a random delay (plus the link's scripted delay), never before one sent
     * earlier on the same link; a cut link loses it.
     */
    void deliver(String from, String to, Runnable task) {
        String link = from + ">" + to;
        long at = Math.max(now + 1 + random.nextInt(3) + linkDelay.getOrDefault(link, 0L),
                linkClock.getOrDefault(link, 0L));
        if (cutLinks.contains(link)) {
            return;
        }
        linkClock.put(link, at);
        events.add(new Event(at, seq++, task));
    }

    /**
     * Fault hook: messages sent from now on a link (one direction) are lost, or delivered again.
     *
     * @param from the sender
     * @param to   the receiver
     * @param cut  whether they are lost
     */
    void cutLink(String from, String to, boolean cut) {
        if (cut) {
            cutLinks.add(from + ">" + to);
        } else {
            cutLinks.remove(from + ">" + to);
        }
    }

    /**
     * Fault hook: messages sent from now on a link (one direction) take this much longer (0: the usual delay);
     * later messages still arrive after earlier ones.
     *
     * @param from  the sender
     * @param to    the receiver
     * @param extra the extra delay in milliseconds
     */
    void delayLink(String from, String to, long extra) {
        linkDelay.put(from + ">" + to, extra);
    }

    MetaState state() {
        return state;
    }

    /** The peers as one caller sees them; nothing reaches a caller whose incarnation ended. */
    LedgerPeers peersFor(String caller, Supplier<Boolean> alive) {
        return new SimPeers(this, caller, alive);
    }

    Metadata metadataFor(Supplier<Boolean> alive) {
        return new SimMetadata(alive);
    }

    private final class SimMetadata implements Metadata {

        private final Supplier<Boolean> alive;

        SimMetadata(Supplier<Boolean> alive) {
            this.alive = alive;
        }

        @Override
        public MetaState current() {
            return state;
        }

        @Override
        public void subscribe(Consumer<MetaState> listener) {
            listener.accept(state);
        }

        @Override
        public void subscribeCommands(Consumer<org.autodisk.node.meta.Applied> listener) {
            // the ledger simulation follows states only
        }

        @Override
        public CompletableFuture<MetaState> awaitVersion(long version, Duration timeout) {
            return CompletableFuture.completedFuture(state);
        }

        @Override
        public CompletableFuture<CommandResult> submit(MetaCommand command, Duration deadline) {
            CompletableFuture<CommandResult> result = new CompletableFuture<>();
            boolean lost = random.nextDouble() < metadataResultLoss;
            schedule(2 + random.nextInt(5), () -> {
                MetaTransitions.Outcome o = MetaTransitions.apply(state, index + 1, command);
                if (o.result().applied()) {
                    index++;
                    state = o.state();
                }
                if (!alive.get()) {
                    return;
                }
                if (lost) {
                    schedule(deadline.toMillis(), () -> result.completeExceptionally(new MetadataException(
                            "simulated: the commit's answer was lost", null)));
                } else {
                    result.complete(o.result());
                }
            });
            return result;
        }

        @Override
        public Histogram applyLag() {
            return new Histogram(3);
        }

        @Override
        public MetadataStatus status() {
            return new MetadataStatus("follower", null, 0, index, index, "", List.of(), List.of());
        }

        @Override
        public void close() {
        }
    }

    /** A log node: its disk survives a crash; what it kept beside it (the confirmed entries) does not. */
    static final class SimLogNode {

        final String id;
        final SimDisk store;
        final java.util.function.LongSupplier clock;
        LogNodeLedgers ledgers;
        boolean up = true;

        SimLogNode(String id, SimDisk store, java.util.function.LongSupplier clock) {
            this.id = id;
            this.store = store;
            this.clock = clock;
            this.ledgers = new LogNodeLedgers(store, clock);
        }

        void crash() {
            if (up) {
                up = false;
                store.crash();
            }
        }

        void restart() {
            if (!up) {
                store.restart();
            }
            up = true;
            ledgers = new LogNodeLedgers(store, clock);
        }
    }

    void addLogNode(String id) {
        logNodes.put(id, new SimLogNode(id, SimDisk.inMemory(id), () -> now * 1_000_000L));
    }

    /** Adds a log node whose ledgers are the real journal in a directory (a crash closes it, a restart reads it). */
    void addJournalLogNode(String id, Path dir) {
        logNodes.put(id, new SimLogNode(id, SimDisk.journal(id, dir), () -> now * 1_000_000L));
    }

    SimLogNode logNode(String id) {
        return logNodes.get(id);
    }

    /** Ends the scripted link faults: no link is cut or delayed any more. */
    void calm() {
        cutLinks.clear();
        linkDelay.clear();
    }

    /** Closes the log nodes' disks (a journal's writer thread). */
    @Override
    public void close() {
        logNodes.values().stream().filter(n -> n.up).forEach(n -> n.store.close());
    }

    List<String> logNodesUp() {
        List<String> up = new ArrayList<>();
        logNodes.keySet().stream().sorted().filter(id -> logNodes.get(id).up).forEach(up::add);
        return up;
    }
}
