package org.autodisk.node.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.TreeMap;
import org.autodisk.node.meta.LedgerInfo;
import org.autodisk.node.meta.LedgerState;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The named scenarios of the log simulation (docs/log-simulation.md): defects 1 to 6 of the previous log shipping,
 * each one scripted schedule on the simulation's clock (its fault hooks, no sleeps, no random faults) played against
 * the ledger protocol, then checked against the simulation's invariants and what the defect was about. Defect 7
 * (fencing and the zombie writer) is in {@link LedgerFencingScenariosTest}.
 */
class LedgerScenariosTest {

    /** The seed of the link delays; every scenario is deterministic. */
    static final long SEED = 13;

    static LedgerSimulation started(int multiplicity, String... logNodes) {
        LedgerSimulation sim = new LedgerSimulation(SEED, multiplicity, List.of(logNodes));
        sim.owner().start();
        sim.runFor(50);
        assertThat(sim.owner().serving).as("the owner serves").isTrue();
        return sim;
    }

    static void write(LedgerSimulation sim, String... keys) {
        for (String key : keys) {
            sim.write(key);
        }
    }

    static LedgerInfo ledger(LedgerSimulation sim, long id) {
        return sim.world().state().ledger(id);
    }

    static String fragments(LedgerSimulation sim, long id) {
        return ledger(sim, id).fragments().stream().map(f -> f.firstEntry() + ":" + f.ensemble()).toList().toString();
    }

    static boolean holds(LedgerSimulation sim, String logNode, long ledgerId, long entryId) {
        return sim.logNode(logNode).store.contents().getOrDefault(ledgerId, new TreeMap<>()).containsKey(entryId);
    }

    /** m=2 on l1 and l2: k1..k3 (entries 1..3) on both, then l2 crashes and k4..k6 go to l1 alone. */
    private static LedgerSimulation degradedOnL1FromEntry4() {
        LedgerSimulation sim = started(2, "l1", "l2");
        write(sim, "k1", "k2", "k3");
        sim.runFor(20);
        sim.logNode("l2").crash();
        write(sim, "k4");
        sim.runFor(150);
        write(sim, "k5", "k6");
        sim.runFor(20);
        assertThat(fragments(sim, 1)).as("degraded on l1 from entry 4").isEqualTo("[1:[l1, l2], 4:[l1]]");
        assertThat(List.of("k1", "k2", "k3", "k4", "k5", "k6")).allMatch(k -> sim.told(k)
                == SimOwner.Outcome.ACKNOWLEDGED);
        return sim;
    }

    @Test
    @DisplayName("defect 1: resync credits what it did not copy")
    void anEntryInFlightOnAStalledLogNodeIsAcknowledgedOnlyOnceEveryLogNodeOfItsFragmentHoldsIt() {
        LedgerSimulation sim = new LedgerSimulation(SEED, 2, List.of("l1", "l2"));
        sim.logNode("l1").crash();
        sim.owner().start();
        sim.runFor(50);
        write(sim, "k1");
        sim.runFor(20);
        assertThat(sim.told("k1")).isEqualTo(SimOwner.Outcome.ACKNOWLEDGED);
        assertThat(fragments(sim, 1)).as("m=2 with l1 down: degraded on l2").isEqualTo("[1:[l2]]");

        sim.logNode("l2").store.stall();
        write(sim, "k2");
        sim.runFor(3);
        sim.logNode("l1").restart();
        sim.owner().restoreNow();
        sim.runFor(20);
        assertThat(fragments(sim, 1)).as("l1 is back: from entry 2 on both").isEqualTo("[1:[l2], 2:[l2, l1]]");
        assertThat(holds(sim, "l1", 1, 2)).as("l1 holds entry 2").isTrue();
        assertThat(sim.world().violations).isEmpty();
        assertThat(sim.told("k2")).as("entry 2 is not acknowledged while l2 (its fsync stalled) does not hold it")
                .isNull();

        sim.logNode("l2").store.release(true);
        sim.runFor(30);
        assertThat(sim.world().violations).isEmpty();
        assertThat(ledger(sim, 1).fragmentOf(2).ensemble()).as("l2's append failed: entry 2 lives on l1 alone, and "
                + "the metadata says so").containsExactly("l1");
        assertThat(sim.told("k2")).isEqualTo(SimOwner.Outcome.ACKNOWLEDGED);
        assertThat(holds(sim, "l2", 1, 2)).isFalse();
        assertThat(sim.settleAndCheck()).isNull();
    }

    @Test
    @DisplayName("defect 2: recovery trusts the first log node that answers")
    void recoveryAfterRunningDegradedWaitsForTheLogNodeThatHoldsTheTailAndNeverClosesShort() {
        LedgerSimulation sim = degradedOnL1FromEntry4();

        sim.logNode("l1").crash();
        sim.logNode("l2").restart();
        sim.owner().crash();
        sim.owner().start();
        sim.runFor(500);
        assertThat(ledger(sim, 1).state()).as("only l2 answers: recovery waits for l1").isNotEqualTo(
                LedgerState.CLOSED);
        assertThat(sim.owner().serving).as("nothing is served meanwhile").isFalse();

        sim.logNode("l1").restart();
        sim.runFor(300);
        assertThat(ledger(sim, 1).state()).isEqualTo(LedgerState.CLOSED);
        assertThat(ledger(sim, 1).lastEntry()).as("closed past every acknowledged entry").isEqualTo(6);
        assertThat(sim.owner().serving).isTrue();
        assertThat(sim.owner().data).containsKeys("k1", "k2", "k3", "k4", "k5", "k6");
        assertThat(sim.settleAndCheck()).isNull();
    }

    @Test
    @DisplayName("defect 3: a write reported failed comes back")
    void anAppendThatTimedOutIsOutcomeUnknownAndSettledTheSameForOwnerLogNodesAndBackup() {
        LedgerSimulation sim = started(1, "l1");
        write(sim, "k1");
        sim.runFor(20);
        sim.world().delayLink("l1", SimOwner.ID, 200);
        write(sim, "k2");
        sim.runFor(100);
        assertThat(sim.told("k2")).as("timed out, the log node may hold it: never a definite failure")
                .isEqualTo(SimOwner.Outcome.UNKNOWN);
        assertThat(holds(sim, "l1", 1, 2)).as("the log node appended it all the same").isTrue();

        sim.world().delayLink("l1", SimOwner.ID, 0);
        sim.runFor(400);
        assertThat(sim.owner().serving).isTrue();
        assertThat(ledger(sim, 1).lastEntry()).as("recovery settled it: in the ledger").isEqualTo(2);
        assertThat(sim.owner().data).containsEntry("k2", "v-k2");
        assertThat(sim.check()).isNull();
        assertThat(sim.backup().data).containsEntry("k2", "v-k2");
        assertThat(sim.settleAndCheck()).isNull();
    }

    @Test
    @DisplayName("defect 4a: holes nobody sees - a write that reached one of two log nodes before the owner restarted")
    void aWriteThatReachedOneOfTwoLogNodesBeforeTheOwnerRestartedIsWrittenBackToBoth() {
        LedgerSimulation sim = started(2, "l1", "l2");
        write(sim, "k1", "k2", "k3");
        sim.runFor(20);
        sim.world().cutLink(SimOwner.ID, "l2", true);
        write(sim, "k4");
        sim.runFor(5);
        assertThat(holds(sim, "l1", 1, 4)).isTrue();
        assertThat(holds(sim, "l2", 1, 4)).isFalse();

        sim.owner().crash();
        sim.world().cutLink(SimOwner.ID, "l2", false);
        sim.owner().start();
        sim.runFor(300);
        assertThat(ledger(sim, 1).lastEntry()).isEqualTo(4);
        assertThat(holds(sim, "l2", 1, 4)).as("recovery wrote entry 4 back to l2").isTrue();

        sim.logNode("l1").crash();
        assertThat(sim.check()).isNull();
        assertThat(sim.backup().applied(1)).as("the backup read entry 4 from l2 alone").isEqualTo(4);
        assertThat(sim.settleAndCheck()).isNull();
    }

    @Test
    @DisplayName("defect 4b: holes nobody sees - a log node brought back with no resync")
    void aLogNodeBackWithoutResyncStartsANewFragmentAndNothingIsReadAcrossWhatItMissed() {
        LedgerSimulation sim = degradedOnL1FromEntry4();
        sim.logNode("l2").restart();
        sim.owner().restoreNow();
        sim.runFor(20);
        write(sim, "k7", "k8", "k9");
        sim.runFor(20);
        assertThat(fragments(sim, 1)).as("l2 back from entry 7, nothing copied")
                .isEqualTo("[1:[l1, l2], 4:[l1], 7:[l1, l2]]");
        assertThat(holds(sim, "l2", 1, 4)).isFalse();

        sim.logNode("l1").crash();
        sim.owner().crash();
        sim.owner().start();
        sim.runFor(500);
        sim.backup().catchUp();
        assertThat(sim.world().violations).as("nobody applies past an entry it did not get").isEmpty();
        assertThat(ledger(sim, 1).lastEntry()).as("l2 answers the fence: closed at 9").isEqualTo(9);
        assertThat(sim.owner().serving).as("entries 4..6 live on l1 alone: the replay waits for it").isFalse();
        assertThat(sim.owner().applied(1)).isLessThan(4);
        assertThat(sim.backup().applied(1)).as("the backup stops before entry 4 it cannot read").isEqualTo(3);

        sim.logNode("l1").restart();
        sim.runFor(300);
        assertThat(sim.owner().serving).isTrue();
        assertThat(sim.owner().applied(1)).isEqualTo(9);
        assertThat(sim.settleAndCheck()).isNull();
    }

    @Test
    @DisplayName("defect 4c: holes nobody sees - a failed pipelined append followed by an accepted one")
    void aPipelinedAppendBehindOneThatFailedOnDiskIsRefusedAndLeavesNoHole() {
        LedgerSimulation sim = started(1, "l1");
        sim.logNode("l1").store.failNextAppends(1);
        write(sim, "k1", "k2");
        sim.runFor(20);
        assertThat(sim.logNode("l1").store.lastEntry(1)).as("entry 2 is refused after entry 1 failed").isZero();
        assertThat(List.of("k1", "k2")).allMatch(k -> sim.told(k) == SimOwner.Outcome.UNKNOWN);

        sim.runFor(300);
        assertThat(ledger(sim, 1).state()).isEqualTo(LedgerState.CLOSED);
        assertThat(ledger(sim, 1).lastEntry()).isZero();
        assertThat(sim.owner().serving).isTrue();
        assertThat(sim.check()).isNull();
        assertThat(sim.settleAndCheck()).isNull();
    }

    @Test
    @DisplayName("defect 5: abandon() after retry()")
    void writesQueuedBehindALogNodeMarkedDownAndBackUpAreNotCreditedByALaterAnswer() {
        LedgerSimulation sim = started(2, "l1", "l2");
        sim.world().delayLink("l2", SimOwner.ID, 90);
        write(sim, "k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "k9");
        sim.runFor(90);
        assertThat(fragments(sim, 1)).as("l2 did not answer in time: marked down").isEqualTo("[1:[l1]]");
        sim.owner().restoreNow();
        sim.runFor(10);
        assertThat(fragments(sim, 1)).as("l2 back up from entry 11").isEqualTo("[1:[l1], 11:[l1, l2]]");

        sim.world().delayLink("l2", SimOwner.ID, 30);
        write(sim, "k10", "k11", "k12", "k13", "k14", "k15", "k16", "k17", "k18", "k19");
        sim.runFor(20);
        assertThat(holds(sim, "l1", 1, 20)).isTrue();
        assertThat(holds(sim, "l2", 1, 15)).as("entries 15.. wait behind l2's four unanswered appends").isFalse();
        sim.world().delayLink("l2", SimOwner.ID, 0);
        sim.runFor(300);
        assertThat(sim.world().violations).as("each acknowledged entry was held by l1 and l2").isEmpty();
        assertThat(sim.told("k19")).isEqualTo(SimOwner.Outcome.ACKNOWLEDGED);
        assertThat(fragments(sim, 1)).isEqualTo("[1:[l1], 11:[l1, l2]]");
        assertThat(sim.settleAndCheck()).isNull();
    }

    @Test
    @DisplayName("defect 6: a failed store apply is skipped instead of halting")
    void aFailedApplyHaltsTheOwnerAndNoLaterEntryMovesItsAppliedPositionPastIt() {
        LedgerSimulation sim = new LedgerSimulation(SEED, 1, List.of("l1"));
        sim.owner().applyLagMillis = 20;
        sim.owner().start();
        sim.runFor(50);
        write(sim, "k1");
        sim.runFor(40);
        assertThat(sim.owner().applied(1)).isEqualTo(1);
        sim.owner().failNextApply();
        write(sim, "k2", "k3", "k4");
        sim.runFor(40);
        assertThat(sim.world().violations).as("nothing is applied past the entry that failed").isEmpty();
        assertThat(sim.owner().applied(1)).as("entry 2 failed to apply: nothing after it is applied either")
                .isEqualTo(1);

        sim.runFor(400);
        assertThat(List.of("k2", "k3", "k4")).allMatch(k -> sim.told(k) == SimOwner.Outcome.UNKNOWN);
        assertThat(sim.owner().serving).isTrue();
        assertThat(sim.owner().applied(1)).as("replayed from the log once it recovered").isEqualTo(4);
        assertThat(sim.check()).isNull();
        assertThat(sim.settleAndCheck()).isNull();
    }
}
