package org.autodisk.node.directory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.autodisk.core.Keys;
import org.autodisk.node.meta.CommandResult;
import org.autodisk.node.meta.InMemoryMetadataGroup;
import org.autodisk.node.meta.MetaBootstrap;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.Member;
import org.autodisk.node.meta.MemberState;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.meta.RangeState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every directory must satisfy, whatever each node holds, with one directory per data node following one
 * metadata group: it routes only once the metadata is applied; every key is served by exactly its owner, and from
 * any node the next hops reach that owner; a range known here is the one holding the key; cover walks an interval in
 * key order without gaps; it follows committed splits and owner changes. A directory that knows only the next hop
 * (no range) for a key is allowed by the contract.
 */
abstract class DirectoryContract {

    static final List<String> NODES = List.of("d1", "d2", "d3", "d4");
    private static final int MAX_HOPS = 8;

    /** The directories of the data nodes. */
    interface Nodes extends AutoCloseable {

        /**
         * Returns a node's directory.
         *
         * @param node the node
         * @return its directory
         */
        Directory directory(String node);

        /**
         * Tells whether every change the directories carry out among themselves is done.
         *
         * @return true when settled
         */
        boolean settled();

        @Override
        void close();

        /**
         * Makes the directories of a harness.
         *
         * @param directory each node's directory
         * @param settled   whether their changes are done
         * @param close     stops them
         * @return the directories
         */
        static Nodes of(Function<String, Directory> directory, BooleanSupplier settled, Runnable close) {
            return new Nodes() {
                @Override
                public Directory directory(String node) {
                    return directory.apply(node);
                }

                @Override
                public boolean settled() {
                    return settled.getAsBoolean();
                }

                @Override
                public void close() {
                    close.run();
                }
            };
        }
    }

    /**
     * Creates the directories under test, each following its node's view of the group.
     *
     * @param group the metadata
     * @param nodes the data nodes
     * @return the directories
     */
    abstract Nodes create(InMemoryMetadataGroup group, List<String> nodes);

    private InMemoryMetadataGroup group;
    private Nodes nodes;
    private int mostHops;

    @BeforeEach
    void start() {
        group = new InMemoryMetadataGroup();
        nodes = create(group, NODES);
    }

    @AfterEach
    void stop() {
        nodes.close();
    }

    /** Starts over with a new metadata group and new directories. */
    void restart() {
        nodes.close();
        start();
    }

    /**
     * Returns the most forwards a key needed in {@link #resolve} so far.
     *
     * @return the hops
     */
    int mostHops() {
        return mostHops;
    }

    MetaState bootstrap(List<byte[]> splitPoints) {
        List<Member> members = NODES.stream().map(id -> new Member(id, "data", id + ":7400", MemberState.UP)).toList();
        return submit(MetaBootstrap.command("range", members, NODES, splitPoints, id -> List.of()));
    }

    MetaState submit(MetaCommand c) {
        return submit(c, true);
    }

    /**
     * Commits a command through d1.
     *
     * @param c      the command
     * @param settle whether to wait until the directories carried it out (and check their copies)
     * @return the metadata after it
     */
    MetaState submit(MetaCommand c, boolean settle) {
        CommandResult r = group.member("d1").submit(c, Duration.ofSeconds(5)).join();
        assertThat(r.applied()).as(r.refusal()).isTrue();
        return settle ? settle() : group.member("d1").current();
    }

    /**
     * Waits until the directories carried out every committed change, and checks their copies.
     *
     * @return the metadata they follow
     */
    MetaState settle() {
        await().atMost(Duration.ofSeconds(30)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(2))
                .until(nodes::settled);
        MetaState s = group.member("d1").current();
        checkCopies(s);
        return s;
    }

    static byte[] randomKey(Random rnd) {
        byte[] key = new byte[1 + rnd.nextInt(4)];
        rnd.nextBytes(key);
        return key;
    }

    /**
     * Follows the placements from a node until one serves the key.
     *
     * @param from where the request enters
     * @param key  the key
     * @return the node that serves it
     */
    String resolve(String from, byte[] key) {
        String at = from;
        for (int hop = 0; hop <= MAX_HOPS; hop++) {
            Placement p = nodes.directory(at).locate(key);
            if (p.servedHere()) {
                assertThat(p.nextHop()).isNull();
                mostHops = Math.max(mostHops, hop);
                return at;
            }
            assertThat(p.nextHop()).as(Keys.render(key) + " on " + at).isNotNull().isNotEqualTo(at).isIn(NODES);
            at = p.nextHop();
        }
        throw new AssertionError(Keys.render(key) + " from " + from + " still not served after " + MAX_HOPS + " hops");
    }

    void assertEveryKeyReachesItsOwner(MetaState s, Random rnd, int keys) {
        for (int i = 0; i < keys; i++) {
            byte[] key = randomKey(rnd);
            RangeDescriptor owning = s.rangeOf(key);
            for (String self : NODES) {
                Placement p = nodes.directory(self).locate(key);
                assertThat(p.servedHere()).as(Keys.render(key) + " on " + self).isEqualTo(owning.owner().equals(self));
                if (p.range() != null) {
                    assertThat(p.range()).isEqualTo(owning);
                }
                assertThat(resolve(self, key)).as(Keys.render(key) + " from " + self).isEqualTo(owning.owner());
            }
        }
    }

    @Test
    void routesNothingBeforeTheMetadataIsApplied() {
        Directory d = nodes.directory("d1");
        assertThat(d.ready()).isFalse();
        assertThat(d.version()).isZero();
        assertThatThrownBy(() -> d.locate(new byte[] {1})).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void everyKeyIsServedByItsOwnerAndReachesItFromEveryNode() {
        MetaState s = bootstrap(List.of());
        NODES.forEach(n -> assertThat(nodes.directory(n).ready()).isTrue());
        assertEveryKeyReachesItsOwner(s, new Random(42), 1000);
    }

    @Test
    void coverWalksAnIntervalInKeyOrderWithoutGaps() {
        MetaState s = bootstrap(List.of(Keys.utf8("c"), Keys.utf8("h"), Keys.utf8("p"), Keys.utf8("w")));
        Directory d = nodes.directory("d2");
        assertThat(owners(d.cover(new byte[0], null))).containsExactly("d1", "d2", "d3", "d4", "d1");
        assertThat(owners(d.cover(Keys.utf8("e"), Keys.utf8("q")))).containsExactly("d2", "d3", "d4");
        List<Placement> one = d.cover(Keys.utf8("h"), Keys.utf8("p"));
        assertThat(owners(one)).containsExactly("d3");
        List<Placement> own = d.cover(Keys.utf8("c"), Keys.utf8("h"));
        assertThat(own).singleElement().satisfies(p -> {
            assertThat(p.servedHere()).isTrue();
            assertThat(p.range()).isEqualTo(s.rangeOf(Keys.utf8("c")));
        });
    }

    private static List<String> owners(List<Placement> cover) {
        return cover.stream().map(p -> p.servedHere() ? "d2" : p.nextHop()).toList();
    }

    @Test
    void followsCommittedSplitsAndOwnerChanges() {
        bootstrap(List.of(Keys.utf8("m")));
        submit(new MetaCommand.Split(0, 1, Keys.utf8("f")));
        MetaState s = submit(new MetaCommand.ChangeRange(2, 1, 2, "d2", List.of("d3"), RangeState.SERVING));
        Directory d = nodes.directory("d2");
        assertThat(d.version()).isEqualTo(s.version());
        Placement moved = d.locate(Keys.utf8("g"));
        assertThat(moved.servedHere()).isTrue();
        assertThat(moved.range()).satisfiesAnyOf(r -> assertThat(r).isNull(), r -> {
            assertThat(r.id()).isEqualTo(2);
            assertThat(r.epoch()).isEqualTo(2);
            assertThat(r.generation()).isEqualTo(2);
        });
        assertThat(d.locate(Keys.utf8("a")).servedHere()).isFalse();
        assertEveryKeyReachesItsOwner(s, new Random(3), 300);
    }

    @Test
    void manySplitsAndMovesKeepEveryKeyReachable() {
        MetaState s = splitAndMove(7, true);
        assertThat(s.ranges().size()).isGreaterThan(100);
        assertEveryKeyReachesItsOwner(s, new Random(11), 500);
    }

    @Test
    void changesCommittedBackToBackWithoutWaitingKeepEveryKeyReachable() {
        splitAndMove(7, false);
        MetaState s = settle();
        assertEveryKeyReachesItsOwner(s, new Random(13), 500);
    }

    /**
     * Splits ranges at 150 random keys and moves 50 random ranges, one committed command at a time.
     *
     * @param seed       where the keys and targets come from
     * @param settleEach whether the directories carry out each before the next commits
     * @return the metadata after them
     */
    MetaState splitAndMove(long seed, boolean settleEach) {
        MetaState s = bootstrap(List.of());
        Random rnd = new Random(seed);
        for (int i = 0; i < 200; i++) {
            byte[] at = randomKey(rnd);
            RangeDescriptor r = s.rangeOf(at);
            if (i % 4 == 3) {
                String to = NODES.get(rnd.nextInt(NODES.size()));
                if (!to.equals(r.owner())) {
                    s = submit(new MetaCommand.ChangeRange(r.id(), r.epoch(), r.generation(), to, List.of(),
                            RangeState.SERVING), settleEach);
                }
            } else if (!Arrays.equals(r.low(), at)) {
                s = submit(new MetaCommand.Split(r.id(), r.generation(), at), settleEach);
            }
        }
        return s;
    }

    /**
     * Checks, after every committed change, what a directory keeps beyond routing (the Fat-Btree's copy invariant).
     *
     * @param s the metadata the directories follow
     */
    void checkCopies(MetaState s) {
    }
}
