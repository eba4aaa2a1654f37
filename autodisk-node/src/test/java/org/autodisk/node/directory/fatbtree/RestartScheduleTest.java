package org.autodisk.node.directory.fatbtree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.autodisk.core.Keys;
import org.autodisk.node.directory.Placement;
import org.autodisk.node.meta.CommandResult;
import org.autodisk.node.meta.InMemoryMetadataGroup;
import org.autodisk.node.meta.Member;
import org.autodisk.node.meta.MemberState;
import org.autodisk.node.meta.MetaBootstrap;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.meta.RangeState;
import org.junit.jupiter.api.Test;

/**
 * Crash schedules of the Fat-Btree's structure changes, seeded: four nodes build a three-level tree, then one crashes
 * at a named point - as the coordinator of a change, after recording it and writing its own copies but before any
 * other node got its batch; as a receiver, after applying a batch but before its receipt went out; or outright while
 * the others change ranges, declared failed meanwhile or not - and restarts over its page store. Afterwards every
 * copy is where it belongs and agrees with its peers, and every key reaches its owner from every node.
 */
class RestartScheduleTest {

    private static final List<String> NODES = List.of("d1", "d2", "d3", "d4");
    private static final int SEEDS = 8;

    @Test
    void aCoordinatorCrashedBetweenItsOwnWriteAndItsBatchesFinishesTheChangeAfterItsRestart() throws Exception {
        for (long seed = 1; seed <= SEEDS; seed++) {
            schedule(seed, (trees, victim) -> trees.crashWhenSending(victim, PageMessage.Batch.class));
        }
    }

    @Test
    void aReceiverCrashedBeforeItsReceiptWentOutIsAskedAgainAfterItsRestart() throws Exception {
        for (long seed = 1; seed <= SEEDS; seed++) {
            schedule(seed, (trees, victim) -> trees.crashWhenSending(victim, PageMessage.Applied.class));
        }
    }

    @Test
    void aNodeDownWhileOthersChangeTheTreeCatchesUpAfterItsRestart() throws Exception {
        for (long seed = 1; seed <= SEEDS; seed++) {
            schedule(seed, InMemoryFatBtrees::crash);
        }
    }

    @Test
    void aNodeDeclaredFailedWhileDownReturnsStillFailedIsTakenBackAndEveryoneCatchesUp() throws Exception {
        for (long seed = 1; seed <= SEEDS; seed++) {
            schedule(seed, InMemoryFatBtrees::crash, true);
        }
    }

    @Test
    void aCoordinatorThatLostItsIndexBetweenItsOwnWriteAndItsBatchesRebuildsItFromItsPeers() throws Exception {
        for (long seed = 1; seed <= SEEDS; seed++) {
            schedule(seed, (trees, victim) -> trees.crashWhenSending(victim, PageMessage.Batch.class), false, true);
        }
    }

    /**
     * The victim crashes as it sends a batch once one to three of its batches went out (the change half-written, or
     * an earlier change done and the next not begun), and restarts with an empty page store: the peers' records finish
     * the change.
     */
    @Test
    void aCoordinatorThatLostItsIndexWithItsChangeHalfWrittenFinishesItFromItsPeersRecords() throws Exception {
        for (long seed = 1; seed <= SEEDS; seed++) {
            int first = 1 + (int) (seed % 3);
            schedule(seed, (trees, victim) -> trees.crashWhenSending(victim, PageMessage.Batch.class, first), false,
                    true);
        }
    }

    @Test
    void aReceiverThatLostItsIndexBeforeItsReceiptWentOutRebuildsItFromItsPeers() throws Exception {
        for (long seed = 1; seed <= SEEDS; seed++) {
            schedule(seed, (trees, victim) -> trees.crashWhenSending(victim, PageMessage.Applied.class), false, true);
        }
    }

    @Test
    void aNodeThatLostItsIndexWhileOthersChangedTheTreeRebuildsItFromItsPeers() throws Exception {
        for (long seed = 1; seed <= SEEDS; seed++) {
            schedule(seed, InMemoryFatBtrees::crash, false, true);
        }
    }

    /**
     * d4 moves its only leaf away and crashes right after its own write dropped every copy it held, before any other
     * node got its batch: it restarts with no copy but the recorded change, which it must finish (and tell the others
     * it restarted, releasing its locks on their roots) rather than start as a node that simply holds nothing.
     */
    @Test
    void aNodeCrashedWhileMovingItsLastLeafAwayFinishesTheMoveHoldingNothing() throws Exception {
        InMemoryMetadataGroup group = new InMemoryMetadataGroup();
        try (InMemoryFatBtrees trees = new InMemoryFatBtrees(group, NODES, 4)) {
            List<Member> members = NODES.stream().map(id -> new Member(id, "data", id + ":7400", MemberState.UP))
                    .toList();
            submit(group, MetaBootstrap.command("range", members, NODES, List.of(), id -> List.of()));
            await().atMost(Duration.ofSeconds(30)).until(trees::settled);
            trees.crashWhenSending("d4", PageMessage.Batch.class);
            RangeDescriptor last = group.member("d1").current().ranges().stream()
                    .filter(r -> r.owner().equals("d4")).findFirst().orElseThrow();
            assertThat(group.member("d1").current().ranges()).filteredOn(r -> r.owner().equals("d4")).hasSize(1);
            submit(group, new MetaCommand.ChangeRange(last.id(), last.epoch(), last.generation(), "d1", List.of(),
                    RangeState.SERVING));
            await("the crash").atMost(Duration.ofSeconds(30)).until(() -> trees.isDown("d4"));
            trees.restart("d4");
            await("settled after d4's restart").atMost(Duration.ofSeconds(30)).until(trees::settled);
            assertThat(trees.violations(group.member("d1").current())).isEmpty();
            assertThat(trees.copies().get("d4")).as("d4 owns no leaf").isZero();
        }
    }

    private interface Fault {
        void arm(InMemoryFatBtrees trees, String victim);
    }

    private static void schedule(long seed, Fault fault) throws Exception {
        schedule(seed, fault, false, false);
    }

    private static void schedule(long seed, Fault fault, boolean failed) throws Exception {
        schedule(seed, fault, failed, false);
    }

    /**
     * The schedule; with {@code failed}, the victim is declared failed once down, and up again after it returns; with
     * {@code lostCopies}, it restarts with an empty page store.
     */
    private static void schedule(long seed, Fault fault, boolean failed, boolean lostCopies) throws Exception {
        InMemoryMetadataGroup group = new InMemoryMetadataGroup();
        try (InMemoryFatBtrees trees = new InMemoryFatBtrees(group, NODES, 4)) {
            Random rnd = new Random(seed);
            List<Member> members = NODES.stream().map(id -> new Member(id, "data", id + ":7400", MemberState.UP))
                    .toList();
            submit(group, MetaBootstrap.command("range", members, NODES, List.of(), id -> List.of()));
            for (int i = 0; i < 60; i++) {
                change(group, rnd);
                await().atMost(Duration.ofSeconds(30)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(2))
                        .until(trees::settled);
            }
            String victim = NODES.get((int) (seed % NODES.size()));
            fault.arm(trees, victim);
            for (int i = 0; i < 400 && !trees.isDown(victim); i++) {
                splitOwnedBy(group, rnd, victim);
                change(group, rnd);
            }
            await("the crash").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(2))
                    .until(() -> trees.isDown(victim));
            if (failed) {
                submit(group, new MetaCommand.SetMemberState(victim, MemberState.UP, MemberState.FAILED));
                for (int i = 0; i < 30; i++) {
                    String other = NODES.get(rnd.nextInt(NODES.size()));
                    if (!other.equals(victim)) {
                        splitOwnedBy(group, rnd, other);
                    }
                }
            }
            for (int i = 0; i < 10; i++) {
                change(group, rnd);
            }
            trees.restart(victim, lostCopies);
            if (failed) {
                // as a rejoin does: the node is back before the metadata takes it back
                submit(group, new MetaCommand.SetMemberState(victim, MemberState.FAILED, MemberState.UP));
            }
            await("seed " + seed + ": settled after " + victim + "'s restart").atMost(Duration.ofSeconds(30))
                    .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(2)).until(trees::settled);
            MetaState s = group.member("d1").current();
            assertThat(trees.violations(s)).as("seed %d, %s crashed%s", seed, victim,
                    lostCopies ? " and lost its copies" : "").isEmpty();
            assertEveryKeyReachesItsOwner(trees, s, rnd);
        }
    }

    /** A random split, or every fourth time a move to a random node. */
    private static void change(InMemoryMetadataGroup group, Random rnd) {
        MetaState s = group.member("d1").current();
        byte[] at = randomKey(rnd);
        RangeDescriptor r = s.rangeOf(at);
        if (rnd.nextInt(4) == 0) {
            String to = NODES.get(rnd.nextInt(NODES.size()));
            if (!to.equals(r.owner())) {
                submit(group, new MetaCommand.ChangeRange(r.id(), r.epoch(), r.generation(), to, List.of(),
                        RangeState.SERVING));
            }
        } else if (!Arrays.equals(r.low(), at)) {
            submit(group, new MetaCommand.Split(r.id(), r.generation(), at));
        }
    }

    private static void splitOwnedBy(InMemoryMetadataGroup group, Random rnd, String node) {
        MetaState s = group.member("d1").current();
        for (int tries = 0; tries < 100; tries++) {
            byte[] at = randomKey(rnd);
            RangeDescriptor r = s.rangeOf(at);
            if (r.owner().equals(node) && !Arrays.equals(r.low(), at)) {
                submit(group, new MetaCommand.Split(r.id(), r.generation(), at));
                return;
            }
        }
    }

    private static void submit(InMemoryMetadataGroup group, MetaCommand c) {
        CommandResult r = group.member("d1").submit(c, Duration.ofSeconds(5)).join();
        assertThat(r.applied()).as(r.refusal()).isTrue();
    }

    private static byte[] randomKey(Random rnd) {
        byte[] key = new byte[1 + rnd.nextInt(4)];
        rnd.nextBytes(key);
        return key;
    }

    private static void assertEveryKeyReachesItsOwner(InMemoryFatBtrees trees, MetaState s, Random rnd) {
        List<String> wrong = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            byte[] key = randomKey(rnd);
            for (String from : NODES) {
                String at = from;
                for (int hop = 0; hop <= 8 && at != null; hop++) {
                    Placement p = trees.directory(at).locate(key);
                    if (p.servedHere()) {
                        break;
                    }
                    at = p.nextHop();
                }
                if (!s.rangeOf(key).owner().equals(at)) {
                    wrong.add(Keys.render(key) + " from " + from + " ended at " + at);
                }
            }
        }
        assertThat(wrong).isEmpty();
    }
}
