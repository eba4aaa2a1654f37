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
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.meta.RangeState;
import org.junit.jupiter.api.Test;

/**
 * Schedules of a node taking its index copies up from its peers ({@link PageRebuild}) while the cluster changes: a
 * holder slow to get a batch, the only leaf owner losing its copies, a first start with a peer down while the
 * metadata moves on, and metadata that replays behind the tree. Each ends with every copy where it belongs and
 * agreeing with its peers. Links can be held and nodes crashed through named hooks of an in-memory network.
 */
class RebuildScheduleTest {

    private static final List<String> NODES = List.of("d1", "d2", "d3", "d4");

    /**
     * d2 moves range 1 (its only leaf under the page over ranges 0, 1, held by d1, d2) to d3; d1 takes the batch, then
     * crashes and loses index/; d2's batch to d3 is slow. d3 answers without the page, but holds its copies: d1 must
     * wait for it rather than take the creation's copy.
     */
    @Test
    void aHolderSlowToGetABatchIsWaitedForNotReplacedByTheCreation() throws Exception {
        try (Cluster c = new Cluster(NODES)) {
            c.bootstrap();
            c.awaitSettled();
            RangeDescriptor r1 = c.state().ranges().get(1);
            c.holdWhen("d2", "d3", m -> m instanceof PageMessage.Batch);
            c.crashAfterTaking("d1", m -> m instanceof PageMessage.Batch);
            c.submit(new MetaCommand.ChangeRange(1, r1.epoch(), r1.generation(), "d3", List.of(),
                    RangeState.SERVING));
            await("d1's crash").atMost(Duration.ofSeconds(10)).until(() -> c.isDown("d1"));
            c.restart("d1", true, c.replaying("d1"));
            await("d1 asked d3 for the page").atMost(Duration.ofSeconds(20)).until(() -> c.fetchesOfPages("d1") > 0);
            c.release("d2", "d3");
            await("d1 took its copies up").atMost(Duration.ofSeconds(20)).until(() -> c.dirs.get("d1").ready());
            c.awaitSettled();
            assertThat(c.violations()).isEmpty();
        }
    }

    /**
     * Every range moves to d1 (the others hold no page, rightly). d1 loses index/ and restarts replaying the metadata
     * from the bootstrap: every peer answers holding no root (and is not taking its copies up), so d1 rebuilds the
     * whole tree from the metadata rather than load the creation's.
     */
    @Test
    void theOnlyLeafOwnerThatLostItsIndexDoesNotLoadTheCreation() throws Exception {
        try (Cluster c = new Cluster(NODES)) {
            c.bootstrap();
            c.awaitSettled();
            for (RangeDescriptor r : c.state().ranges()) {
                if (!r.owner().equals("d1")) {
                    c.submit(new MetaCommand.ChangeRange(r.id(), r.epoch(), r.generation(), "d1", List.of(),
                            RangeState.SERVING));
                    c.awaitSettled();
                }
            }
            assertThat(c.violations()).isEmpty();
            assertThat(c.dirs.get("d2").copies().pages()).isEmpty();
            c.crash("d1");
            c.restart("d1", true, c.replaying("d1"));
            await("d1 rebuilt").atMost(Duration.ofSeconds(20)).until(() -> c.dirs.get("d1").ready());
            c.awaitSettled();
            assertThat(c.violations()).isEmpty();
        }
    }

    /**
     * d4 is down at the cluster's first start; d1..d3 wait LOAD_AFTER_TRIES rounds, then load the creation (or find a
     * peer's root, whichever comes first), and the split of d1's range 0 committed while they waited is followed.
     */
    @Test
    void aSplitCommittedWhileWaitingForADownPeerAtFirstStartIsFollowed() throws Exception {
        try (Cluster c = new Cluster(List.of("d1", "d2", "d3"))) {
            c.bootstrap();
            await("d1 asked its peers, d4 not answering").atMost(Duration.ofSeconds(20))
                    .until(() -> c.fetchesOfRoots("d1") > 1);
            c.submit(new MetaCommand.Split(0, 1, new byte[] {10}));
            await("loaded").atMost(Duration.ofSeconds(30)).until(() -> c.dirs.get("d1").ready());
            c.start("d4");
            c.awaitSettled();
            assertThat(c.violations()).isEmpty();
        }
    }

    /**
     * d1 alone holds two level-1 pages (range 1 moved to it, range 0 split twice so that the page split at 0x0a). It
     * loses index/ and restarts while its metadata is still replaying (it applied the bootstrap, not yet the rest): it
     * waits for its metadata to reach its peers' before it rebuilds the pages only it held from it.
     */
    @Test
    void aPageOnlyTheNodeHeldIsNotRebuiltFromMetadataOlderThanTheTree() throws Exception {
        try (Cluster c = new Cluster(NODES)) {
            c.bootstrap();
            c.awaitSettled();
            RangeDescriptor r1 = c.state().ranges().get(1);
            c.submit(new MetaCommand.ChangeRange(1, r1.epoch(), r1.generation(), "d1", List.of(),
                    RangeState.SERVING));
            c.awaitSettled();
            c.submit(new MetaCommand.Split(0, 1, new byte[] {5}));
            c.awaitSettled();
            RangeDescriptor right = c.state().rangeOf(new byte[] {6});
            c.submit(new MetaCommand.Split(right.id(), right.generation(), new byte[] {10}));
            c.awaitSettled();
            assertThat(c.violations()).isEmpty();
            c.crash("d1");
            Cluster.Lagging lagging = c.lagging("d1");
            c.restart("d1", true, lagging);
            await("d1 asked its peers").atMost(Duration.ofSeconds(20)).until(() -> c.fetchesOfRoots("d1") > 0);
            lagging.catchUp();
            await("d1 took its copies up").atMost(Duration.ofSeconds(20)).until(() -> c.dirs.get("d1").ready());
            c.awaitSettled();
            assertThat(c.violations()).isEmpty();
        }
    }

    /** Directories over an in-memory network: links can be held, nodes crashed; a fetch to a down node fails. */
    private static final class Cluster implements AutoCloseable {

        final InMemoryMetadataGroup group = new InMemoryMetadataGroup();
        final List<Applied> log = Collections.synchronizedList(new ArrayList<>());
        final Map<String, FatBtreeDirectory> dirs = new java.util.concurrent.ConcurrentHashMap<>();
        final Map<String, PageStore> stores = new HashMap<>();
        final Set<String> down = new HashSet<>();
        final Map<String, List<Runnable>> waiting = new HashMap<>();
        final Map<String, Deque<Runnable>> held = new HashMap<>();
        final Map<String, Predicate<PageMessage>> holdWhen = new HashMap<>();
        final Map<String, Map<Long, Runnable>> inFlight = new HashMap<>();
        final AtomicLong sent = new AtomicLong();
        final AtomicLong taken = new AtomicLong();
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

        Cluster(List<String> started) {
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
            dirs.get(to).receive(from, m, () -> took(to, n, m));
        }

        private synchronized void took(String to, long n, PageMessage m) {
            Map<Long, Runnable> f = inFlight.get(to);
            if (f != null && f.remove(n) != null) {
                taken.incrementAndGet();
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
            if (down.contains(from) || down.contains(to) || !dirs.containsKey(to)) {
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
}
