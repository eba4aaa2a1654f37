package org.autodisk.node.meta;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.autodisk.core.Keys;
import org.junit.jupiter.api.Test;

/** Every command of the metadata, applied and refused: a refusal changes nothing and says what it found. */
class MetaTransitionsTest {

    private static final List<String> DATA = List.of("d1", "d2", "d3");

    static MetaCommand.Bootstrap bootstrap() {
        List<Member> members = List.of(new Member("d1", "data", "h1:1", MemberState.UP),
                new Member("d2", "data", "h2:1", MemberState.UP), new Member("d3", "data", "h3:1", MemberState.UP),
                new Member("l1", "log", "h4:1", MemberState.UP));
        return MetaBootstrap.command("range", members, DATA, List.of(Keys.utf8("h"), Keys.utf8("p")),
                id -> List.of("l1"));
    }

    private static MetaState created() {
        return MetaTransitions.apply(MetaState.EMPTY, 1, bootstrap()).state();
    }

    static MetaTransitions.Outcome apply(MetaState s, MetaCommand c) {
        return MetaTransitions.apply(s, s.version() + 1, c);
    }

    static void assertRefused(MetaState s, MetaCommand c, String... found) {
        MetaTransitions.Outcome o = apply(s, c);
        assertThat(o.result().applied()).isFalse();
        assertThat(o.result().refusal()).contains(found);
        assertThat(o.state()).as("a refusal changes nothing").isSameAs(s);
        assertThat(o.result().version()).isEqualTo(s.version());
    }

    @Test
    void bootstrapCreatesTheClusterOnceFromItsConfiguration() {
        MetaState s = created();
        assertThat(s.bootstrapped()).isTrue();
        assertThat(s.version()).isEqualTo(1);
        assertThat(s.ranges()).extracting(RangeDescriptor::id, RangeDescriptor::owner)
                .containsExactly(org.assertj.core.api.Assertions.tuple(0, "d1"),
                        org.assertj.core.api.Assertions.tuple(1, "d2"), org.assertj.core.api.Assertions.tuple(2, "d3"));
        assertThat(s.ranges()).allSatisfy(r -> {
            assertThat(r.epoch()).isEqualTo(1);
            assertThat(r.generation()).isEqualTo(1);
            assertThat(r.logNodes()).containsExactly("l1");
        });
        assertThat(s.range(0).backups()).containsExactly("d2");
        assertThat(s.nextRangeId()).isEqualTo(3);
        assertRefused(s, bootstrap(), "the cluster was created already (metadata version 1)");
    }

    @Test
    void aBootstrapWhoseRangesDoNotTileTheKeySpaceIsRefused() {
        MetaCommand.Bootstrap b = bootstrap();
        MetaCommand.Bootstrap gap = new MetaCommand.Bootstrap(b.directory(), b.members(), b.ranges().subList(1, 3),
                b.created());
        assertRefused(MetaState.EMPTY, gap, "ranges must start at the empty key");
    }

    @Test
    void nothingButABootstrapAppliesBeforeTheClusterExists() {
        assertRefused(MetaState.EMPTY, new MetaCommand.Split(0, 1, Keys.utf8("c")), "not bootstrapped");
    }

    @Test
    void aSplitKeepsTheLeftIdGivesTheRightANewOneAndRaisesBothGenerations() {
        MetaState s = created();
        MetaTransitions.Outcome o = apply(s, new MetaCommand.Split(1, 1, Keys.utf8("k")));
        assertThat(o.result().applied()).isTrue();
        assertThat(o.result().rangeIds()).containsExactly(1, 3);
        MetaState next = o.state();
        assertThat(next.version()).isEqualTo(2);
        assertThat(next.ranges()).extracting(RangeDescriptor::id).containsExactly(0, 1, 3, 2);
        RangeDescriptor left = next.range(1);
        RangeDescriptor right = next.range(3);
        assertThat(left.high()).isEqualTo(Keys.utf8("k"));
        assertThat(right.low()).isEqualTo(Keys.utf8("k"));
        assertThat(right.high()).isEqualTo(Keys.utf8("p"));
        for (RangeDescriptor r : List.of(left, right)) {
            assertThat(r.generation()).isEqualTo(2);
            assertThat(r.epoch()).as("data does not move").isEqualTo(1);
            assertThat(r.owner()).isEqualTo("d2");
            assertThat(r.backups()).containsExactly("d3");
        }
        assertThat(next.nextRangeId()).isEqualTo(4);
        assertThat(MetaTransitions.tiling(next.ranges())).isNull();
    }

    @Test
    void aSplitAtABoundaryOutsideTheRangeOrWithoutKeyIsRefused() {
        MetaState s = created();
        assertRefused(s, new MetaCommand.Split(1, 1, Keys.utf8("h")), "'h' is already a boundary of range 1");
        assertRefused(s, new MetaCommand.Split(1, 1, Keys.utf8("p")), "already a boundary");
        assertRefused(s, new MetaCommand.Split(1, 1, Keys.utf8("a")), "key 'a' is not in range 1");
        assertRefused(s, new MetaCommand.Split(1, 1, Keys.utf8("q")), "is not in range 1");
        assertRefused(s, new MetaCommand.Split(1, 1, new byte[0]), "must not be empty");
        assertRefused(s, new MetaCommand.Split(9, 1, Keys.utf8("k")), "there is no range 9");
    }

    @Test
    void ofTwoConflictingDecisionsOnlyTheFirstToCommitApplies() {
        MetaState s = created();
        MetaState first = apply(s, new MetaCommand.Split(1, 1, Keys.utf8("k"))).state();
        assertRefused(first, new MetaCommand.Split(1, 1, Keys.utf8("m")),
                "range 1 was expected at generation 1 but is at generation 2");
        MetaState moved = apply(first, new MetaCommand.ChangeRange(0, 1, 1, "d3", List.of("d2"), RangeState.SERVING))
                .state();
        assertRefused(moved, new MetaCommand.ChangeRange(0, 1, 1, "d2", List.of("d3"), RangeState.SERVING),
                "range 0 was expected at epoch 1, generation 1 but is at epoch 2, generation 1");
    }

    @Test
    void anOwnerChangeRaisesTheEpochAndABackupChangeDoesNot() {
        MetaState s = created();
        MetaState moved = apply(s, new MetaCommand.ChangeRange(0, 1, 1, "d3", List.of("d2"), RangeState.SERVING))
                .state();
        assertThat(moved.range(0).owner()).isEqualTo("d3");
        assertThat(moved.range(0).epoch()).isEqualTo(2);
        MetaState rebacked = apply(moved, new MetaCommand.ChangeRange(0, 2, 1, "d3", List.of("d1"),
                RangeState.SERVING)).state();
        assertThat(rebacked.range(0).epoch()).isEqualTo(2);
        assertThat(rebacked.range(0).backups()).containsExactly("d1");
        assertThat(rebacked.range(0).logNodes()).as("kept").containsExactly("l1");
    }

    @Test
    void aRangeChangeToAStrangerOrALogNodeOrWithTheOwnerAsBackupIsRefused() {
        MetaState s = created();
        assertRefused(s, new MetaCommand.ChangeRange(0, 1, 1, "d9", List.of(), RangeState.SERVING),
                "d9 is not a data node of the cluster");
        assertRefused(s, new MetaCommand.ChangeRange(0, 1, 1, "l1", List.of(), RangeState.SERVING),
                "l1 is not a data node");
        assertRefused(s, new MetaCommand.ChangeRange(0, 1, 1, "d2", List.of("d2"), RangeState.SERVING),
                "d2 cannot be its own backup");
        assertRefused(s, new MetaCommand.ChangeRange(7, 1, 1, "d2", List.of(), RangeState.SERVING),
                "there is no range 7");
    }

    @Test
    void aMemberMovesStateOnlyFromTheStateExpected() {
        MetaState s = created();
        MetaState suspected = apply(s, new MetaCommand.SetMemberState("d2", MemberState.UP, MemberState.SUSPECTED))
                .state();
        assertThat(suspected.member("d2").state()).isEqualTo(MemberState.SUSPECTED);
        assertRefused(suspected, new MetaCommand.SetMemberState("d2", MemberState.UP, MemberState.FAILED),
                "member d2 was expected UP but is SUSPECTED");
        assertRefused(s, new MetaCommand.SetMemberState("d7", null, MemberState.UP), "there is no member d7");
        assertThat(apply(suspected, new MetaCommand.SetMemberState("d2", null, MemberState.UP)).result().applied())
                .isTrue();
    }

    @Test
    void aJoiningDataNodeIsAddedOnceJoiningAndAnotherWithATakenIdIsRefused() {
        MetaState s = created();
        Member d4 = new Member("d4", "data", "h5:1", MemberState.UP);
        MetaTransitions.Outcome added = apply(s, new MetaCommand.AddMember(d4));
        assertThat(added.result().applied()).isTrue();
        assertThat(added.state().member("d4")).isEqualTo(d4.in(MemberState.JOINING));
        assertThat(added.state().version()).isEqualTo(s.version() + 1);
        MetaTransitions.Outcome again = apply(added.state(), new MetaCommand.AddMember(d4));
        assertThat(again.result().applied()).as("a joining node that restarts asks again").isTrue();
        assertThat(again.state()).isSameAs(added.state());
        assertRefused(added.state(), new MetaCommand.AddMember(new Member("d4", "data", "h6:1", MemberState.UP)),
                "there is a member d4 already, a data node at h5:1");
        assertRefused(s, new MetaCommand.AddMember(new Member("l1", "data", "h4:1", MemberState.UP)),
                "there is a member l1 already, a log node at h4:1");
        assertRefused(s, new MetaCommand.AddMember(new Member("l2", "log", "h7:1", MemberState.UP)),
                "only a data node joins a running cluster; l2 is a log node");
        MetaState up = apply(added.state(), new MetaCommand.SetMemberState("d4", MemberState.JOINING,
                MemberState.UP)).state();
        assertThat(up.member("d4").state()).isEqualTo(MemberState.UP);
        assertThat(up.created().dataNodes()).as("the creation record stays").isEqualTo(DATA);
    }

    @Test
    void aFatBtreeClusterTakesNoMoreThan256DataNodesEverJoined() {
        MetaCommand.Bootstrap b = bootstrap();
        MetaState s = MetaTransitions.apply(MetaState.EMPTY, 1, new MetaCommand.Bootstrap("fat-btree", b.members(),
                b.ranges(), b.created())).state();
        int data = (int) s.members().stream().filter(m -> "data".equals(m.role())).count();
        for (int i = data; i < 256; i++) {
            s = apply(s, new MetaCommand.AddMember(new Member("j" + i, "data", "j" + i + ":1", MemberState.UP)))
                    .state();
        }
        assertRefused(s, new MetaCommand.AddMember(new Member("j256", "data", "j256:1", MemberState.UP)),
                "at most 256 data nodes");
    }

    @Test
    void commandsAndStatesRoundTripThroughTheirJson() {
        MetaState s = apply(created(), new MetaCommand.Split(1, 1, Keys.utf8("k"))).state();
        assertThat(MetaCodec.read(MetaCodec.write(s), MetaState.class)).isEqualTo(s);
        List<MetaCommand> commands = List.of(bootstrap(), new MetaCommand.Split(1, 2, new byte[] {0, -1, 7}),
                new MetaCommand.ChangeRange(2, 3, 4, "d1", List.of("d3"), RangeState.MIGRATING),
                new MetaCommand.SetMemberState("d1", null, MemberState.LEAVING),
                new MetaCommand.AddMember(new Member("d9", "data", "h9:1", MemberState.JOINING)));
        for (MetaCommand c : commands) {
            MetaEntry e = new MetaEntry(c, "d1", 1234);
            MetaEntry back = MetaCodec.read(MetaCodec.write(e), MetaEntry.class);
            assertThat(MetaTransitions.apply(s, 9, back.command()).result())
                    .isEqualTo(MetaTransitions.apply(s, 9, c).result());
            assertThat(back.proposer()).isEqualTo("d1");
        }
    }

    @Test
    void everyCommandTypeHasANameInTheJson() {
        java.util.Set<Class<?>> named = java.util.Arrays.stream(MetaCommand.class.getAnnotation(
                com.fasterxml.jackson.annotation.JsonSubTypes.class).value())
                .map(com.fasterxml.jackson.annotation.JsonSubTypes.Type::value).collect(java.util.stream.Collectors
                        .toSet());
        assertThat(named).as("a command without a name fails every replica's state machine when it is applied")
                .containsExactlyInAnyOrder(MetaCommand.class.getPermittedSubclasses());
    }
}
