package org.autodisk.node.directory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.autodisk.core.Keys;
import org.autodisk.node.meta.MetaBootstrap;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.MetaTransitions;
import org.autodisk.node.meta.Member;
import org.autodisk.node.meta.MemberState;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.meta.RangeState;
import org.junit.jupiter.api.Test;

/**
 * What every directory must satisfy, whatever it holds: it routes only once the metadata is applied; every key
 * lands in the one range that holds it, served here exactly when this node owns it, else with a next hop; cover
 * walks an interval in key order without gaps; it follows committed splits and owner changes and ignores older
 * states. A directory that knows only the next hop (no range) for a key is allowed by the contract.
 */
abstract class DirectoryContract {

    private static final List<String> NODES = List.of("d1", "d2", "d3", "d4");

    /**
     * Creates the directory under test.
     *
     * @param selfId the node it routes for
     * @return an empty directory
     */
    abstract Directory create(String selfId);

    static MetaState cluster(List<byte[]> splitPoints) {
        List<Member> members = NODES.stream().map(id -> new Member(id, "data", id + ":7400", MemberState.UP)).toList();
        MetaCommand.Bootstrap b = MetaBootstrap.command("range", members, NODES, splitPoints, id -> List.of());
        return MetaTransitions.apply(MetaState.EMPTY, 1, b).state();
    }

    static MetaState apply(MetaState s, long index, MetaCommand c) {
        MetaTransitions.Outcome o = MetaTransitions.apply(s, index, c);
        assertThat(o.result().applied()).as(o.result().refusal()).isTrue();
        return o.state();
    }

    private static byte[] randomKey(Random rnd) {
        byte[] key = new byte[1 + rnd.nextInt(4)];
        rnd.nextBytes(key);
        return key;
    }

    @Test
    void routesNothingBeforeTheMetadataIsApplied() {
        Directory d = create("d1");
        assertThat(d.ready()).isFalse();
        assertThat(d.version()).isZero();
        assertThatThrownBy(() -> d.locate(new byte[] {1})).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void everyKeyLandsInTheRangeThatHoldsItServedHereExactlyWhenOwned() {
        MetaState s = cluster(List.of());
        Random rnd = new Random(42);
        for (String self : NODES) {
            Directory d = create(self);
            d.apply(s);
            assertThat(d.ready()).isTrue();
            for (int i = 0; i < 2000; i++) {
                byte[] key = randomKey(rnd);
                RangeDescriptor owning = s.rangeOf(key);
                Placement p = d.locate(key);
                assertThat(p.servedHere()).as(Keys.render(key) + " on " + self).isEqualTo(owning.owner().equals(self));
                if (p.range() != null) {
                    assertThat(p.range()).isEqualTo(owning);
                    assertThat(p.range().contains(key)).isTrue();
                }
                if (p.servedHere()) {
                    assertThat(p.nextHop()).isNull();
                } else {
                    assertThat(p.nextHop()).isNotNull().isNotEqualTo(self).isIn(NODES);
                }
            }
        }
    }

    @Test
    void coverWalksAnIntervalInKeyOrderWithoutGaps() {
        MetaState s = cluster(List.of(Keys.utf8("c"), Keys.utf8("h"), Keys.utf8("p"), Keys.utf8("w")));
        Directory d = create("d2");
        d.apply(s);
        List<Placement> all = d.cover(new byte[0], null);
        assertThat(all).extracting(Placement::rangeId).containsExactly(0, 1, 2, 3, 4);
        List<Placement> some = d.cover(Keys.utf8("e"), Keys.utf8("q"));
        assertThat(some).extracting(Placement::rangeId).containsExactly(1, 2, 3);
        assertThat(d.cover(Keys.utf8("h"), Keys.utf8("p"))).extracting(Placement::rangeId).containsExactly(2);
        for (int i = 1; i < all.size(); i++) {
            assertThat(all.get(i).range().low()).isEqualTo(all.get(i - 1).range().high());
        }
    }

    @Test
    void followsCommittedSplitsAndOwnerChangesAndIgnoresOlderStates() {
        MetaState v1 = cluster(List.of(Keys.utf8("m")));
        Directory d = create("d2");
        d.apply(v1);
        MetaState v2 = apply(v1, 2, new MetaCommand.Split(0, 1, Keys.utf8("f")));
        MetaState v3 = apply(v2, 3, new MetaCommand.ChangeRange(2, 1, 2, "d2", List.of("d3"), RangeState.SERVING));
        d.apply(v3);
        assertThat(d.version()).isEqualTo(3);
        Placement moved = d.locate(Keys.utf8("g"));
        assertThat(moved.servedHere()).isTrue();
        assertThat(moved.range()).satisfiesAnyOf(r -> assertThat(r).isNull(), r -> {
            assertThat(r.id()).isEqualTo(2);
            assertThat(r.epoch()).isEqualTo(2);
            assertThat(r.generation()).isEqualTo(2);
        });
        assertThat(d.locate(Keys.utf8("a")).servedHere()).isFalse();
        d.apply(v2);
        assertThat(d.version()).as("an older state is ignored").isEqualTo(3);
        assertThat(d.locate(Keys.utf8("g")).servedHere()).isTrue();
    }

    @Test
    void manySplitsKeepEveryKeyInExactlyOneRange() {
        MetaState s = cluster(List.of());
        Random rnd = new Random(7);
        long index = 2;
        for (int i = 0; i < 200; i++) {
            byte[] at = randomKey(rnd);
            RangeDescriptor r = s.rangeOf(at);
            MetaTransitions.Outcome o = MetaTransitions.apply(s, index++, new MetaCommand.Split(r.id(),
                    r.generation(), at));
            s = o.state();
        }
        Directory d = create("d1");
        d.apply(s);
        MetaState split = s;
        Function<byte[], Long> owners = key -> split.ranges().stream().filter(r -> r.contains(key)).count();
        List<byte[]> keys = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            keys.add(randomKey(rnd));
        }
        for (byte[] key : keys) {
            assertThat(owners.apply(key)).isEqualTo(1);
            assertThat(d.locate(key).servedHere()).isEqualTo(split.rangeOf(key).owner().equals("d1"));
        }
    }
}
