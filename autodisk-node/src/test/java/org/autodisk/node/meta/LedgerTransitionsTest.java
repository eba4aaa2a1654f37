package org.autodisk.node.meta;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.autodisk.core.Keys;
import org.junit.jupiter.api.Test;

class LedgerTransitionsTest {

    private static MetaState created() {
        return MetaTransitions.apply(MetaState.EMPTY, 1, MetaTransitionsTest.bootstrap()).state();
    }

    private static MetaTransitions.Outcome apply(MetaState s, MetaCommand c) {
        return MetaTransitionsTest.apply(s, c);
    }

    private static void assertRefused(MetaState s, MetaCommand c, String... found) {
        MetaTransitionsTest.assertRefused(s, c, found);
    }

    private static MetaState opened() {
        RangeDescriptor r = created().ranges().get(0);
        return apply(created(), new MetaCommand.OpenLedger(r.id(), r.epoch(), r.owner(), List.of("l1"))).state();
    }

    @Test
    void theOwnerOpensALedgerWithDenseNeverReusedIds() {
        MetaState s = opened();
        LedgerInfo l = s.ledger(1);
        assertThat(l.state()).isEqualTo(LedgerState.OPEN);
        assertThat(l.writer()).isEqualTo("d1");
        assertThat(l.fragments()).containsExactly(new LedgerInfo.Fragment(1, List.of("l1")));
        assertThat(s.nextLedgerId()).isEqualTo(2);
        assertThat(MetaCodec.read(MetaCodec.write(s), MetaState.class)).isEqualTo(s);
    }

    @Test
    void aNewWriterMustCloseTheRangesOpenLedgerFirst() {
        MetaState s = opened();
        RangeDescriptor r = s.ranges().get(0);
        assertRefused(s, new MetaCommand.OpenLedger(r.id(), r.epoch(), "d1", List.of("l1")), "ledger 1", "not closed");
        assertRefused(s, new MetaCommand.OpenLedger(r.id(), r.epoch(), "d2", List.of("l1")), "d2 does not own");
        assertRefused(s, new MetaCommand.OpenLedger(r.id(), r.epoch() + 1, "d1", List.of("l1")), "epoch");
        assertRefused(s, new MetaCommand.OpenLedger(r.id(), r.epoch(), "d1", List.of("d2")), "not a log node");

        MetaState closed = apply(s, new MetaCommand.CloseLedger(1, 7)).state();
        MetaTransitions.Outcome again = apply(closed, new MetaCommand.OpenLedger(r.id(), r.epoch(), "d1",
                List.of("l1")));
        assertThat(again.result().ledgerId()).isEqualTo(2);
    }

    @Test
    void onlyAClosedLedgerIsDeletedAndItsIdIsNeverGivenAgain() {
        MetaState s = opened();
        assertRefused(s, new MetaCommand.DeleteLedger(1), "ledger 1", "is not closed");
        MetaState frozen = apply(s, new MetaCommand.RecoverLedger(1, "d2")).state();
        assertRefused(frozen, new MetaCommand.DeleteLedger(1), "is not closed");
        MetaState closed = apply(frozen, new MetaCommand.CloseLedger(1, 7)).state();
        MetaState deleted = apply(closed, new MetaCommand.DeleteLedger(1)).state();
        assertThat(deleted.ledger(1)).isNull();
        assertThat(deleted.ledgers()).isEmpty();
        assertRefused(deleted, new MetaCommand.DeleteLedger(1), "there is no ledger 1");
        assertThat(MetaCodec.read(MetaCodec.write(new MetaCommand.DeleteLedger(1)), MetaCommand.class))
                .isEqualTo(new MetaCommand.DeleteLedger(1));
        RangeDescriptor r = deleted.ranges().get(0);
        assertThat(apply(deleted, new MetaCommand.OpenLedger(r.id(), r.epoch(), "d1", List.of("l1"))).result()
                .ledgerId()).isEqualTo(2);
    }

    @Test
    void recoveryFreezesTheEnsembleAndTheFirstCloseWins() {
        MetaState s = opened();
        MetaState frozen = apply(s, new MetaCommand.RecoverLedger(1, "d2")).state();
        assertThat(frozen.ledger(1).state()).isEqualTo(LedgerState.IN_RECOVERY);
        assertRefused(frozen, new MetaCommand.ChangeEnsemble(1, 1, 5, List.of("l1")), "is not open");

        MetaState closed = apply(frozen, new MetaCommand.CloseLedger(1, 9)).state();
        assertThat(closed.ledger(1).lastEntry()).isEqualTo(9);
        assertRefused(closed, new MetaCommand.CloseLedger(1, 4), "closed already at entry 9");
        assertRefused(closed, new MetaCommand.RecoverLedger(1, "d3"), "closed already");
    }

    @Test
    void anEnsembleChangeStartsAFragmentOnlyFromWhatTheWriterSaw() {
        MetaState s = opened();
        MetaState changed = apply(s, new MetaCommand.ChangeEnsemble(1, 1, 5, List.of("l1"))).state();
        assertThat(changed.ledger(1).fragments()).extracting(LedgerInfo.Fragment::firstEntry).containsExactly(1L, 5L);
        assertThat(changed.ledger(1).fragmentOf(4).firstEntry()).isEqualTo(1);
        assertThat(changed.ledger(1).fragmentOf(5).firstEntry()).isEqualTo(5);
        assertRefused(changed, new MetaCommand.ChangeEnsemble(1, 1, 6, List.of("l1")), "2 fragments");
        assertRefused(changed, new MetaCommand.ChangeEnsemble(1, 2, 3, List.of("l1")), "start before");
        assertRefused(changed, new MetaCommand.ChangeEnsemble(1, 2, 6, List.of("l1", "l1")), "twice");
    }

    @Test
    void aSplitHalfSeesTheLedgersOfTheRangeItCameFrom() {
        MetaState s = opened();
        RangeDescriptor r = s.ranges().get(0);
        MetaState split = apply(s, new MetaCommand.Split(r.id(), r.generation(), Keys.utf8("c"))).state();
        RangeDescriptor right = split.range(split.ranges().get(1).id());
        assertThat(split.ledgersOf(right)).extracting(LedgerInfo::id).containsExactly(1L);
        assertRefused(split, new MetaCommand.OpenLedger(right.id(), right.epoch(), "d1", List.of("l1")),
                "not closed");
    }

    @Test
    void aSplitItsOwnerAsksForOpensALedgerPerHalfBesideTheRangesOpenOneMarkedWithTheOwnersProcess() {
        MetaState s = opened();
        RangeDescriptor r = s.ranges().get(0);
        MetaTransitions.Outcome o = apply(s, new MetaCommand.Split(r.id(), r.generation(), Keys.utf8("c"),
                List.of("l1"), 42));
        assertThat(o.result().applied()).isTrue();
        MetaState split = o.state();
        RangeDescriptor left = split.range(r.id());
        RangeDescriptor right = split.rangeOf(Keys.utf8("c"));
        assertThat(split.ledger(1).state()).as("the range's own ledger stays open: its writer closes it")
                .isEqualTo(LedgerState.OPEN);
        LedgerInfo l = split.ledger(2);
        LedgerInfo rl = split.ledger(3);
        assertThat(List.of(l, rl)).allSatisfy(x -> {
            assertThat(x.state()).isEqualTo(LedgerState.OPEN);
            assertThat(x.writer()).isEqualTo("d1");
            assertThat(x.opener()).isEqualTo(42);
            assertThat(x.fragments()).containsExactly(new LedgerInfo.Fragment(1, List.of("l1")));
        });
        assertThat(l.rangeId()).isEqualTo(left.id());
        assertThat(l.high()).isEqualTo(Keys.utf8("c"));
        assertThat(rl.rangeId()).isEqualTo(right.id());
        assertThat(rl.low()).isEqualTo(Keys.utf8("c"));
        assertThat(split.nextLedgerId()).isEqualTo(4);
        assertThat(MetaCodec.read(MetaCodec.write(split), MetaState.class)).isEqualTo(split);
        assertThat(MetaCodec.read(MetaCodec.write(o.state().ledger(2)), LedgerInfo.class).opener()).isEqualTo(42);
    }

    @Test
    void aSplitWithoutTheOwnersMarkOrWithAnEnsembleOfNoLogNodesOpensNoLedgerButStillSplits() {
        MetaState s = opened();
        RangeDescriptor r = s.ranges().get(0);
        for (MetaCommand.Split c : List.of(new MetaCommand.Split(r.id(), r.generation(), Keys.utf8("c"),
                List.of("l1"), 0), new MetaCommand.Split(r.id(), r.generation(), Keys.utf8("c"), List.of("d2"), 42),
                new MetaCommand.Split(r.id(), r.generation(), Keys.utf8("c")))) {
            MetaTransitions.Outcome o = apply(s, c);
            assertThat(o.result().applied()).as(c.toString()).isTrue();
            assertThat(o.state().ranges()).hasSize(s.ranges().size() + 1);
            assertThat(o.state().ledgers()).as("no ledger opened").containsExactlyElementsOf(s.ledgers());
        }
        MetaCommand old = MetaCodec.read(Keys.utf8("{\"type\":\"split\",\"rangeId\":0,\"expectedGeneration\":1,"
                + "\"at\":\"Yw==\"}"), MetaCommand.class);
        assertThat(old).as("a split logged before splits opened ledgers opens none").usingRecursiveComparison()
                .isEqualTo(new MetaCommand.Split(0, 1, Keys.utf8("c")));
    }
}
