package org.autodisk.node.directory.fatbtree;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * The Fat-Btree paper's comparison over in-memory channels: a cluster of {@code nodes} data nodes, each starting
 * with one range, grows by random leaf splits to {@code leavesPerNode} ranges per node; then a measured phase of
 * splits and moves of boundary leaves to their neighbour in key order (the balancer's move), and routes of random
 * keys from random nodes. The same seed plays the same operations in every layout.
 */
public final class DirectorySimulation {

    private DirectorySimulation() {
    }

    /**
     * What to simulate.
     *
     * @param nodes         data nodes
     * @param leavesPerNode ranges per node once grown
     * @param fanout        entries per index page at most
     * @param splits        measured leaf splits
     * @param moves         measured leaf moves
     * @param routes        routed keys
     * @param seed          the seed
     */
    public record Config(int nodes, int leavesPerNode, int fanout, int splits, int moves, int routes, long seed) {
    }

    /**
     * What one layout cost.
     *
     * @param layout            the layout
     * @param config            what was simulated
     * @param leaves            ranges at the end
     * @param levels            index levels at the end
     * @param indexPages        distinct index pages at the end
     * @param messagesPerSplit  mean messages to other nodes per measured split
     * @param maxSplitMessages  the most messages one split sent
     * @param messagesPerMove   mean messages to other nodes per measured move
     * @param copiesPerSplit    mean page copies written or dropped elsewhere per split
     * @param bytesPerSplit     mean bytes sent per split
     * @param bytesPerMove      mean bytes sent per move
     * @param indexBytesMean    index bytes a node holds, mean over nodes
     * @param indexBytesMax     index bytes a node holds, the most
     * @param hops              forwards per routed key, sorted
     * @param busiestShare      the share of all index page reads of routing done by the busiest node
     * @param violations        copy-invariant violations found at the end (none expected)
     */
    public record Figures(Layout layout, Config config, int leaves, int levels, int indexPages, double messagesPerSplit,
            int maxSplitMessages, double messagesPerMove, double copiesPerSplit, double bytesPerSplit,
            double bytesPerMove, double indexBytesMean, long indexBytesMax, int[] hops, double busiestShare,
            List<String> violations) {

        /**
         * Returns a percentile of the hops.
         *
         * @param p the percentile, 0-100
         * @return the hops at it
         */
        public int hopsAt(double p) {
            return hops.length == 0 ? 0 : hops[(int) Math.min(hops.length - 1, Math.ceil(p / 100 * hops.length) - 1)];
        }

        /**
         * Returns the mean hops.
         *
         * @return forwards per key
         */
        public double hopsMean() {
            return Arrays.stream(hops).average().orElse(0);
        }
    }

    /**
     * Runs one layout.
     *
     * @param layout the layout
     * @param c      the configuration
     * @return its figures
     */
    public static Figures run(Layout layout, Config c) {
        if (c.nodes() < 1 || c.leavesPerNode() < 1 || c.splits() < 0 || c.moves() < 0 || c.routes() < 0) {
            throw new IllegalArgumentException("nodes and leaves per node must be at least 1, counts not negative");
        }
        PageCluster cluster = Trees.cluster(layout, c.nodes(), 1, c.fanout());
        Random rnd = new Random(c.seed());
        long[] next = {2, c.nodes()};
        while (cluster.leaves().size() < c.nodes() * c.leavesPerNode()) {
            split(cluster, rnd, next);
        }
        List<ChangeCost> splits = new ArrayList<>();
        List<ChangeCost> moves = new ArrayList<>();
        int total = c.splits() + c.moves();
        for (int i = 0; i < total; i++) {
            if ((long) i * c.moves() / Math.max(1, total) < (long) (i + 1) * c.moves() / Math.max(1, total)) {
                ChangeCost m = move(cluster, rnd, next);
                if (m != null) {
                    moves.add(m);
                }
            } else {
                splits.add(split(cluster, rnd, next));
            }
        }
        return figures(cluster, c, splits, moves, routes(cluster, rnd, c.routes()));
    }

    private static ChangeCost split(PageCluster cluster, Random rnd, long[] next) {
        while (true) {
            ChangeCost cost = cluster.split(Trees.key(rnd.nextLong(1L << 32)), next[1], next[0]);
            if (cost != null) {
                next[0]++;
                next[1]++;
                return cost;
            }
        }
    }

    private static ChangeCost move(PageCluster cluster, Random rnd, long[] next) {
        List<BulkLoad.Leaf> leaves = cluster.leaves();
        for (int tries = 0; tries < 100; tries++) {
            int i = rnd.nextInt(leaves.size() - 1);
            BulkLoad.Leaf a = leaves.get(i);
            BulkLoad.Leaf b = leaves.get(i + 1);
            if (!a.owner().equals(b.owner())) {
                boolean right = rnd.nextBoolean();
                BulkLoad.Leaf moved = right ? a : b;
                return cluster.move(moved.low(), right ? b.owner() : a.owner(), next[0]++);
            }
        }
        return null;
    }

    private static int[] routes(PageCluster cluster, Random rnd, int count) {
        int[] hops = new int[count];
        List<String> nodes = cluster.nodes();
        for (int i = 0; i < count; i++) {
            byte[] key = Trees.key(rnd.nextLong(1L << 32));
            PageCluster.Trace t = cluster.route(nodes.get(rnd.nextInt(nodes.size())), key);
            if (!t.servedBy().equals(cluster.leafOf(key).owner())) {
                throw new IllegalStateException("a key reached " + t.servedBy() + ", not its owner");
            }
            hops[i] = t.hops();
        }
        Arrays.sort(hops);
        return hops;
    }

    private static Figures figures(PageCluster cluster, Config c, List<ChangeCost> splits, List<ChangeCost> moves,
            int[] hops) {
        boolean copySets = cluster.layout().copySets();
        long[] bytes = cluster.copies().values().stream().mapToLong(n -> n.bytes(copySets)).toArray();
        NodeCopies any = cluster.copies().get(cluster.nodes().get(0));
        int levels = any.page(any.rootId()).level();
        long pages = cluster.copies().values().stream().flatMap(n -> n.pages().keySet().stream()).distinct().count();
        return new Figures(cluster.layout(), c, cluster.leaves().size(), levels, (int) pages,
                mean(splits, ChangeCost::messages), splits.stream().mapToInt(ChangeCost::messages).max().orElse(0),
                mean(moves, ChangeCost::messages), mean(splits, ChangeCost::pageCopies),
                mean(splits, x -> (int) x.bytes()), mean(moves, x -> (int) x.bytes()),
                Arrays.stream(bytes).average().orElse(0), Arrays.stream(bytes).max().orElse(0), hops,
                busiest(cluster), CopyInvariant.check(cluster));
    }

    private static double busiest(PageCluster cluster) {
        long total = cluster.pagesRead().values().stream().mapToLong(Long::longValue).sum();
        return total == 0 ? 0 : cluster.pagesRead().values().stream().mapToLong(Long::longValue).max().orElse(0)
                / (double) total;
    }

    /**
     * What concurrent structure changes cost under MARK-OPT's locks.
     *
     * @param nodes        data nodes
     * @param changes      changes carried out
     * @param lockMessages lock requests, grants and releases sent between nodes
     * @param batches      page batches sent between nodes
     * @param retries      changes that found their mark too low once locked and started again
     * @param violations   copy-invariant violations after each round (none expected)
     */
    public record Concurrency(int nodes, int changes, int lockMessages, int batches, int retries,
            List<String> violations) {
    }

    /**
     * Grows a Fat-Btree like {@link #run}, then runs rounds of concurrent splits and moves (distinct ranges within a
     * round) whose messages are delivered in a seeded random order, under MARK-OPT's locks.
     *
     * @param c        the configuration ({@code splits} and {@code moves} are ignored)
     * @param perRound changes started at once
     * @param rounds   rounds, each settled before the next
     * @return its cost
     */
    public static Concurrency concurrent(Config c, int perRound, int rounds) {
        PageCluster cluster = Trees.cluster(Layout.FAT_BTREE, c.nodes(), 1, c.fanout());
        Random rnd = new Random(c.seed());
        long[] next = {2, c.nodes()};
        while (cluster.leaves().size() < c.nodes() * c.leavesPerNode()) {
            split(cluster, rnd, next);
        }
        ConcurrentChanges race = new ConcurrentChanges(cluster, true, c.seed());
        int changes = 0;
        List<String> violations = new ArrayList<>();
        for (int r = 0; r < rounds && violations.isEmpty(); r++) {
            changes += round(cluster, race, rnd, next, perRound);
            race.settle();
            violations.addAll(CopyInvariant.check(cluster));
        }
        return new Concurrency(c.nodes(), changes, race.lockMessages(), race.batches(), race.retries(), violations);
    }

    private static int round(PageCluster cluster, ConcurrentChanges race, Random rnd, long[] next, int count) {
        java.util.Set<Long> touched = new java.util.HashSet<>();
        int started = 0;
        List<BulkLoad.Leaf> leaves = cluster.leaves();
        for (int i = 0; i < count; i++) {
            int at = rnd.nextInt(leaves.size() - 1);
            BulkLoad.Leaf a = leaves.get(at);
            if (!touched.add(a.id())) {
                continue;
            }
            BulkLoad.Leaf b = leaves.get(at + 1);
            if (rnd.nextInt(4) == 0 && !a.owner().equals(b.owner()) && touched.add(b.id())) {
                race.move(a.low(), b.owner(), next[0]++);
                started++;
            } else if (inside(a, b) > 1 && race.split(Trees.key(value(a.low()) + 1 + rnd.nextLong(inside(a, b) - 1)),
                    next[1], next[0])) {
                touched.add(next[1]++);
                next[0]++;
                started++;
            }
        }
        return started;
    }

    private static long inside(BulkLoad.Leaf a, BulkLoad.Leaf b) {
        return value(b.low()) - value(a.low());
    }

    private static long value(byte[] key) {
        return key.length == 0 ? 0 : java.nio.ByteBuffer.wrap(key).getInt() & 0xffffffffL;
    }

    private static double mean(List<ChangeCost> costs, java.util.function.ToIntFunction<ChangeCost> f) {
        return costs.stream().mapToInt(f).average().orElse(0);
    }
}
