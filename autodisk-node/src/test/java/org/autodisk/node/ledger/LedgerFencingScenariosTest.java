package org.autodisk.node.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.autodisk.node.ledger.LedgerScenariosTest.fragments;
import static org.autodisk.node.ledger.LedgerScenariosTest.ledger;
import static org.autodisk.node.ledger.LedgerScenariosTest.started;
import static org.autodisk.node.ledger.LedgerScenariosTest.write;

import java.nio.file.Path;
import java.util.List;
import org.autodisk.node.meta.LedgerState;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Defect 7 of the previous log shipping, "fencing in memory and raised before it is checked", as named scenarios of
 * the log simulation: the range moves from d1 to d2 while d1 is paused; d2 recovers d1's ledger (fencing it) and
 * opens its own; then d1 resumes as a zombie writer of its old ledger. Its writes must be refused: by a fence that
 * survived a log node's restart, without changing anything on the log nodes that refuse them, and also when its log
 * nodes are not the ones the new owner fenced.
 */
class LedgerFencingScenariosTest {

    @TempDir
    Path dir;

    /**
     * d1 writes a1..a3 through ledger 1 (on l1 and l2), then the range moves to d2 while d1 is paused; d2 starts:
     * it recovers ledger 1 and opens its own.
     *
     * @param sim       the simulation, d1 serving
     * @param meanwhile what happens after the move, before d2 starts
     * @return d1, the zombie writer of ledger 1
     */
    private static SimOwner movedToD2(LedgerSimulation sim, Runnable meanwhile) {
        write(sim, "a1", "a2", "a3");
        sim.runFor(20);
        assertThat(fragments(sim, 1)).isEqualTo("[1:[l1, l2]]");
        SimOwner zombie = sim.handOver("d2");
        meanwhile.run();
        sim.owner().start();
        sim.runFor(200);
        assertThat(sim.owner().serving).as("d2 serves").isTrue();
        return zombie;
    }

    @Test
    @DisplayName("defect 7a: a fence is persisted - a restarted log node still refuses the old writer")
    void aFenceSurvivesALogNodeRestartAndStillRefusesTheZombieWriter() {
        LedgerSimulation sim = new LedgerSimulation(LedgerScenariosTest.SEED, 1, List.of());
        try (SimWorld world = sim.world()) {
            world.addJournalLogNode("l1", dir.resolve("l1"));
            sim.owner().start();
            sim.runFor(50);
            write(sim, "a1", "a2");
            sim.runFor(20);
            SimOwner zombie = sim.handOver("d2");
            sim.owner().start();
            sim.runFor(100);
            assertThat(ledger(sim, 1).lastEntry()).isEqualTo(2);
            assertThat(sim.owner().serving).as("d2 serves").isTrue();

            sim.logNode("l1").crash();
            sim.logNode("l1").restart();
            sim.write(zombie, "z");
            sim.runFor(100);
            assertThat(sim.told("z")).as("the zombie's write after l1 restarted").isNotEqualTo(
                    SimOwner.Outcome.ACKNOWLEDGED);
            assertThat(zombie.writer().state()).isEqualTo(WriterState.FENCED);
            assertThat(sim.logNode("l1").store.fenced(1)).as("the fence was read back from the journal").isTrue();
            assertThat(sim.logNode("l1").store.lastEntry(1)).isEqualTo(2);
            assertThat(sim.settleAndCheck()).isNull();
        }
    }

    @Test
    @DisplayName("defect 7b: a refused append does not change the log node's state")
    void anAppendRefusedByAFenceLeavesTheLogNodeAsItWas() {
        LedgerSimulation sim = started(2, "l1", "l2");
        SimOwner zombie = movedToD2(sim, () -> { });
        assertThat(ledger(sim, 1).lastEntry()).isEqualTo(3);

        sim.write(zombie, "z");
        sim.runFor(100);
        assertThat(sim.told("z")).isEqualTo(SimOwner.Outcome.UNKNOWN);
        assertThat(zombie.writer().state()).isEqualTo(WriterState.FENCED);
        for (String node : List.of("l1", "l2")) {
            SimDisk disk = sim.logNode(node).store;
            assertThat(disk.fenced(1)).as("%s still fences ledger 1", node).isTrue();
            assertThat(disk.lastEntry(1)).as("%s took nothing of the refused append", node).isEqualTo(3);
            assertThat(disk.contents().get(1L)).as("%s's copy of ledger 1", node).hasSize(3);
        }
        assertThat(sim.settleAndCheck()).isNull();
    }

    @Test
    @DisplayName("defect 7c: a zombie writer whose log nodes differ from the ones the new owner fenced")
    void aZombieWriterCannotMoveItsLedgerToLogNodesTheNewOwnerDidNotFence() {
        LedgerSimulation sim = started(2, "l1", "l2", "l3");
        SimOwner zombie = movedToD2(sim, () -> sim.logNode("l1").crash());
        assertThat(ledger(sim, 1).state()).isEqualTo(LedgerState.CLOSED);
        assertThat(ledger(sim, 1).lastEntry()).as("l2 answered the fence").isEqualTo(3);
        assertThat(fragments(sim, 2)).as("d2 writes elsewhere").isEqualTo("[1:[l2, l3]]");

        sim.logNode("l1").restart();
        assertThat(sim.logNode("l1").store.fenced(1)).as("l1 was down: never fenced").isFalse();
        sim.world().cutLink("l2", SimOwner.ID, true);
        sim.write(zombie, "z");
        sim.runFor(200);
        assertThat(sim.told("z")).as("l1 took it, l2 is silent: the zombie may not move its ledger to [l1, l3]")
                .isEqualTo(SimOwner.Outcome.UNKNOWN);
        assertThat(zombie.writer().state()).isEqualTo(WriterState.FENCED);
        assertThat(fragments(sim, 1)).isEqualTo("[1:[l1, l2]]");
        assertThat(ledger(sim, 1).lastEntry()).isEqualTo(3);

        sim.world().cutLink("l2", SimOwner.ID, false);
        assertThat(sim.settleAndCheck()).isNull();
    }
}
