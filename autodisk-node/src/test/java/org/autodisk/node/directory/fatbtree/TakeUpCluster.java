package org.autodisk.node.directory.fatbtree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.stream.IntStream;
import org.HdrHistogram.Histogram;
import org.autodisk.node.meta.Applied;
import org.autodisk.node.meta.CommandResult;
import org.autodisk.node.meta.InMemoryMetadataGroup;
import org.autodisk.node.meta.Member;
import org.autodisk.node.meta.MemberState;
import org.autodisk.node.meta.MetaBootstrap;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.Metadata;
import org.autodisk.node.meta.MetadataStatus;

/**
 * Fat-Btree directories of four data nodes over in-memory metadata and an in-memory page network, for the schedules
 * of nodes taking their copies up: links can be held or their messages lost, nodes crashed (with or without their
 * page store), their metadata made to lag; a fetch to a down node fails.
 */
final class TakeUpCluster implements AutoCloseable {

    /** The data nodes. */
    static final List<String> NODES = List.of("d1", "d2", "d3", "d4");

    final InMemoryMetadataGroup group = new InMemoryMetadataGroup();
    final List<Applied> log = Collections.synchronizedList(new ArrayList<>());
    final Map<String, FatBtreeDirectory> dirs = new java.util.concurrent.ConcurrentHashMap<>();
    final Map<String, PageStore> stores = new HashMap<>();
    final Set<String> down = new HashSet<>();
    /** Nodes whose page fetch answers are lost (slow, or cut off from the asker for a while). */
    final Set<String> mute = java.util.concurrent.ConcurrentHashMap.newKeySet();
    final Map<String, List<Runnable>> waiting = new HashMap<>();
    final Map<String, Deque<Runnable>> held = new HashMap<>();
    final Map<String, Predicate<PageMessage>> holdWhen = new HashMap<>();
    final Map<String, Map<Long, Runnable>> inFlight = new HashMap<>();
    final AtomicLong sent = new AtomicLong();
    final AtomicLong taken = new AtomicLong();
    final Map<String, AtomicLong> kindsTaken = new java.util.concurrent.ConcurrentHashMap<>();
    long seq;
    String crashAfterTakingNode;
    Predicate<PageMessage> crashAfterTaking;
    final Map<String, AtomicLong> rootFetches = new java.util.concurrent.ConcurrentHashMap<>();
    final Map<String, AtomicLong> pageFetches = new java.util.concurrent.ConcurrentHashMap<>();
    final PageNetwork net = new PageNetwork() {
        @Override
        public void send(String from, String to, PageMessage m) {
            carry(from, to, m);
        }

        @Override
        public CompletableFuture<PageFetch.Answer> fetch(String from, String to, long page) {
            return answer(from, to, page);
        }
    };

    TakeUpCluster(List<String> started) {
        group.member("recorder").subscribeCommands(log::add);
        NODES.forEach(n -> stores.put(n, new InMemoryPageStore()));
        NODES.stream().filter(n -> !started.contains(n)).forEach(down::add);
        for (String n : started) {
            FatBtreeDirectory d = new FatBtreeDirectory(n, 3, net, stores.get(n));
            dirs.put(n, d);
            d.follow(group.member(n));
        }
    }

    void bootstrap() {
        List<Member> members = NODES.stream().map(id -> new Member(id, "data", id + ":7400", MemberState.UP))
                .toList();
        List<byte[]> points = IntStream.rangeClosed(1, 11).mapToObj(i -> new byte[] {(byte) (i * 20)}).toList();
        submit(MetaBootstrap.command("fat-btree", 3, members, NODES, points, id -> List.of()));
    }

    void submit(MetaCommand cmd) {
        CommandResult r = group.member("d1").submit(cmd, Duration.ofSeconds(5)).join();
        assertThat(r.applied()).as(r.refusal()).isTrue();
    }

    MetaState state() {
        return group.member("recorder").current();
    }

    private synchronized void carry(String from, String to, PageMessage m) {
        if (down.contains(from)) {
            return;
        }
        sent.incrementAndGet();
        String link = from + ">" + to;
        Predicate<PageMessage> when = holdWhen.get(link);
        if (held.containsKey(link) || when != null && when.test(m)) {
            held.computeIfAbsent(link, k -> new ArrayDeque<>()).add(() -> toNode(from, to, m));
        } else {
            toNode(from, to, m);
        }
    }

    private void toNode(String from, String to, PageMessage m) {
        if (down.contains(to)) {
            waiting.computeIfAbsent(to, k -> new ArrayList<>()).add(() -> deliver(from, to, m));
        } else {
            deliver(from, to, m);
        }
    }

    private void deliver(String from, String to, PageMessage m) {
        long n = seq++;
        inFlight.computeIfAbsent(to, k -> new LinkedHashMap<>()).put(n, () -> deliver(from, to, m));
        dirs.get(to).receive(from, m, () -> took(from, to, n, m));
    }

    private synchronized void took(String from, String to, long n, PageMessage m) {
        Map<Long, Runnable> f = inFlight.get(to);
        if (f != null && f.remove(n) != null) {
            taken.incrementAndGet();
            kindsTaken.computeIfAbsent(from + ">" + to + ":" + m.getClass().getSimpleName(), k -> new AtomicLong())
                    .incrementAndGet();
            if (to.equals(crashAfterTakingNode) && crashAfterTaking.test(m)) {
                crashAfterTakingNode = null;
                crash(to);
            }
        }
    }

    synchronized void crashAfterTaking(String node, Predicate<PageMessage> kind) {
        crashAfterTakingNode = node;
        crashAfterTaking = kind;
    }

    private synchronized CompletableFuture<PageFetch.Answer> answer(String from, String to, long page) {
        if (down.contains(from) || down.contains(to) || !dirs.containsKey(to) || mute.contains(to)) {
            return CompletableFuture.failedFuture(new IOException(to + " is down"));
        }
        (page == PageFetch.ROOT ? rootFetches : pageFetches).computeIfAbsent(from, k -> new AtomicLong())
                .incrementAndGet();
        return dirs.get(to).answer(from, page);
    }

    long fetchesOfRoots(String node) {
        return rootFetches.getOrDefault(node, new AtomicLong()).get();
    }

    long fetchesOfPages(String node) {
        return pageFetches.getOrDefault(node, new AtomicLong()).get();
    }

    synchronized void holdWhen(String from, String to, Predicate<PageMessage> when) {
        holdWhen.put(from + ">" + to, when);
    }

    /** How many batches {@code to} took from {@code from}. */
    long batchesTaken(String from, String to) {
        return taken(from, to, PageMessage.Batch.class);
    }

    /** How many messages of a kind {@code to} took from {@code from}. */
    long taken(String from, String to, Class<? extends PageMessage> kind) {
        return kindsTaken.getOrDefault(from + ">" + to + ":" + kind.getSimpleName(), new AtomicLong()).get();
    }

    /** Loses the messages held on a link (its sender crashed with them unsent) and holds no more. */
    synchronized void lose(String from, String to) {
        holdWhen.remove(from + ">" + to);
        Deque<Runnable> q = held.remove(from + ">" + to);
        taken.addAndGet(q == null ? 0 : q.size()); // gone: no longer awaited
    }

    synchronized void release(String from, String to) {
        holdWhen.remove(from + ">" + to);
        Deque<Runnable> q = held.remove(from + ">" + to);
        if (q != null) {
            q.forEach(Runnable::run);
        }
    }

    synchronized void crash(String node) {
        down.add(node);
        dirs.get(node).halt();
        List<Runnable> again = new ArrayList<>(inFlight.getOrDefault(node, Map.of()).values());
        again.addAll(waiting.getOrDefault(node, List.of()));
        waiting.put(node, again);
        inFlight.remove(node);
    }

    synchronized boolean isDown(String node) {
        return down.contains(node);
    }

    void restart(String node, boolean lost, Metadata metadata) throws InterruptedException {
        dirs.get(node).awaitHalted();
        synchronized (this) {
            if (lost) {
                stores.put(node, new InMemoryPageStore());
            }
            startNow(node, metadata);
        }
    }

    synchronized void start(String node) {
        startNow(node, group.member(node));
    }

    private void startNow(String node, Metadata metadata) {
        FatBtreeDirectory d = new FatBtreeDirectory(node, 3, net, stores.get(node));
        dirs.put(node, d);
        d.follow(metadata);
        down.remove(node);
        List<Runnable> w = waiting.remove(node);
        if (w != null) {
            w.forEach(Runnable::run);
        }
    }

    /** A node's metadata replaying the log: the bootstrap first, the rest on {@link Lagging#catchUp}. */
    Lagging lagging(String node) {
        return new Lagging(group.member(node), List.copyOf(log));
    }

    /** A node's metadata as after a restart that replays the log from the bootstrap on, at once. */
    Metadata replaying(String node) {
        Lagging l = lagging(node);
        l.catchUp();
        return l;
    }

    static final class Lagging implements Metadata {
        private final Metadata base;
        private final List<Applied> replay;
        private final List<Consumer<MetaState>> states = new ArrayList<>();
        private final List<Consumer<Applied>> commands = new ArrayList<>();
        private volatile boolean caughtUp;

        Lagging(Metadata base, List<Applied> replay) {
            this.base = base;
            this.replay = replay;
        }

        synchronized void catchUp() {
            caughtUp = true;
            commands.forEach(l -> {
                replay.subList(1, replay.size()).forEach(l);
                base.subscribeCommands(l);
            });
            states.forEach(base::subscribe);
        }

        @Override
        public MetaState current() {
            return caughtUp ? base.current() : replay.get(0).after();
        }

        @Override
        public synchronized void subscribe(Consumer<MetaState> listener) {
            if (caughtUp) {
                base.subscribe(listener);
                return;
            }
            states.add(listener);
            listener.accept(replay.get(0).after());
        }

        @Override
        public synchronized void subscribeCommands(Consumer<Applied> listener) {
            if (caughtUp) {
                replay.forEach(listener);
                base.subscribeCommands(listener);
                return;
            }
            commands.add(listener);
            listener.accept(replay.get(0));
        }

        @Override
        public CompletableFuture<MetaState> awaitVersion(long version, Duration timeout) {
            return base.awaitVersion(version, timeout);
        }

        @Override
        public CompletableFuture<CommandResult> submit(MetaCommand command, Duration deadline) {
            return base.submit(command, deadline);
        }

        @Override
        public Histogram applyLag() {
            return base.applyLag();
        }

        @Override
        public MetadataStatus status() {
            return base.status();
        }

        @Override
        public void close() {
        }
    }

    boolean settled() {
        long before = sent.get();
        synchronized (this) {
            if (!held.values().stream().allMatch(Deque::isEmpty) || !down.isEmpty()) {
                return false;
            }
        }
        boolean idle = dirs.values().stream().allMatch(d -> d.ready() && d.idle().join());
        return idle && taken.get() == before && sent.get() == before;
    }

    void awaitSettled() {
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(5)).until(this::settled);
    }

    List<String> violations() {
        Map<String, NodeCopies> all = new LinkedHashMap<>();
        NODES.forEach(n -> all.put(n, dirs.get(n).copies()));
        return CopyInvariant.check(all, state());
    }

    @Override
    public void close() {
        dirs.values().forEach(FatBtreeDirectory::close);
    }
}
