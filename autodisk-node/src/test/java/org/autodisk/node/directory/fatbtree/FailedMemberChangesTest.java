package org.autodisk.node.directory.fatbtree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
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
 * A change that must lock a member declared failed is put aside and does not hold up its coordinator's other
 * changes. Four data nodes, 24 ranges under index pages of fanout 8 (four level-1 pages of six leaves under the
 * root); the second level-1 page's leaves all belong to d1. d2 goes down: a split of a d1 leaf that shares its
 * level-1 page with d2 waits for d2's lock; once d2 is declared failed that change steps aside, and a later split of
 * a d1 leaf under the page d2 does not hold is carried out. When d2 is up again and back, the change put aside is
 * carried out too, and every copy agrees with the metadata. The same when the split waits for its own copy's lock,
 * which a change of d2 took before d2 crashed with its batches unsent.
 */
class FailedMemberChangesTest {

    private static final List<String> NODES = List.of("d1", "d2", "d3", "d4");

    @Test
    void aChangeAwaitingAFailedMembersLockStepsAsideForTheOthers() throws Exception {
        InMemoryMetadataGroup group = new InMemoryMetadataGroup();
        try (InMemoryFatBtrees trees = new InMemoryFatBtrees(group, NODES, 8)) {
            FatBtreeDirectory d1 = start(group, trees);
            trees.crash("d2");
            split(group, 0, new byte[] {5});
            await("d1 asked d2 for its lock").pollDelay(Duration.ofMillis(200)).atMost(Duration.ofSeconds(5))
                    .until(() -> !d1.idle().join());
            submit(group, new MetaCommand.SetMemberState("d2", MemberState.UP, MemberState.FAILED));
            int right = split(group, 8, new byte[] {85});
            await("the split under the page d2 does not hold, carried out while d2 is failed")
                    .atMost(Duration.ofSeconds(10)).until(() -> leafIds(d1).contains((long) right));
            assertThat(leafIds(d1)).as("the split that needs d2's lock waits").doesNotContain(24L);

            submit(group, new MetaCommand.SetMemberState("d2", MemberState.FAILED, MemberState.UP));
            trees.restart("d2");
            await("settled after d2's return").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(2))
                    .until(trees::settled);
            MetaState s = group.member("d1").current();
            assertThat(trees.violations(s)).isEmpty();
            assertThat(leafIds(d1)).contains(24L, (long) right);
        }
    }

    @Test
    void aChangeWaitingBehindAFailedMembersLockOnItsOwnCopyStepsAside() throws Exception {
        InMemoryMetadataGroup group = new InMemoryMetadataGroup();
        try (InMemoryFatBtrees trees = new InMemoryFatBtrees(group, NODES, 8)) {
            FatBtreeDirectory d1 = start(group, trees);
            trees.crashWhenSending("d2", PageMessage.Batch.class);
            split(group, 1, new byte[] {15});
            await("d2 crashed holding d1's lock on the page above range 1").atMost(Duration.ofSeconds(5))
                    .until(() -> trees.isDown("d2"));
            submit(group, new MetaCommand.SetMemberState("d2", MemberState.UP, MemberState.FAILED));
            split(group, 0, new byte[] {5});
            int right = split(group, 8, new byte[] {85});
            await("the split under the page d2 does not hold, carried out while d2 is failed")
                    .atMost(Duration.ofSeconds(10)).until(() -> leafIds(d1).contains((long) right));

            trees.restart("d2");
            submit(group, new MetaCommand.SetMemberState("d2", MemberState.FAILED, MemberState.UP));
            await("settled after d2's return").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(2))
                    .until(trees::settled);
            assertThat(trees.violations(group.member("d1").current())).isEmpty();
            assertThat(leafIds(d1)).contains(24L, 25L, (long) right);
        }
    }

    /** Bootstraps 24 ranges and gives d1 every range under the second level-1 page. */
    private static FatBtreeDirectory start(InMemoryMetadataGroup group, InMemoryFatBtrees trees) {
        List<Member> members = NODES.stream().map(id -> new Member(id, "data", id + ":7400", MemberState.UP))
                .toList();
        List<byte[]> points = IntStream.rangeClosed(1, 23).mapToObj(i -> new byte[] {(byte) (i * 10)}).toList();
        submit(group, MetaBootstrap.command("range", members, NODES, points, id -> List.of()));
        settle(trees);
        for (int id = 6; id < 12; id++) {
            RangeDescriptor r = group.member("d1").current().range(id);
            if (!r.owner().equals("d1")) {
                submit(group, new MetaCommand.ChangeRange(id, r.epoch(), r.generation(), "d1", List.of(),
                        RangeState.SERVING));
            }
        }
        settle(trees);
        FatBtreeDirectory d1 = (FatBtreeDirectory) trees.directory("d1");
        assertThat(copySetAbove(d1, 8)).as("the page above range 8").containsExactly("d1");
        assertThat(copySetAbove(d1, 0)).as("the page above range 0").contains("d1", "d2");
        return d1;
    }

    private static List<String> copySetAbove(FatBtreeDirectory d, int rangeId) {
        return d.copies().pages().values().stream().filter(p -> p.level() == 1)
                .filter(p -> p.entries().stream().anyMatch(e -> e.child() == rangeId)).findFirst().orElseThrow()
                .copySet();
    }

    private static List<Long> leafIds(FatBtreeDirectory d) {
        List<Long> out = new ArrayList<>();
        d.copies().pages().values().stream().filter(p -> p.level() == 1)
                .forEach(p -> p.entries().forEach(e -> out.add(e.child())));
        return out;
    }

    /** Splits a range at a key; returns the new right range's id. */
    private static int split(InMemoryMetadataGroup group, int rangeId, byte[] at) {
        RangeDescriptor r = group.member("d1").current().range(rangeId);
        submit(group, new MetaCommand.Split(rangeId, r.generation(), at));
        return group.member("d1").current().rangeOf(at).id();
    }

    private static void settle(InMemoryFatBtrees trees) {
        await().atMost(Duration.ofSeconds(30)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(2))
                .until(trees::settled);
    }

    private static void submit(InMemoryMetadataGroup group, MetaCommand c) {
        CommandResult r = group.member("d1").submit(c, Duration.ofSeconds(5)).join();
        assertThat(r.applied()).as(r.refusal()).isTrue();
    }
}
