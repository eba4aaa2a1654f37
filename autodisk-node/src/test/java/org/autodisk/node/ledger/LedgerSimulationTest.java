package org.autodisk.node.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Seeded schedules of the ledger protocol with faults; a failure prints the seed, and
 * {@code new LedgerSimulation(seed, m).run(ms)} replays it exactly.
 */
class LedgerSimulationTest {

    private static final int SEEDS = Integer.getInteger("autodisk.sim.seeds", 40);

    @Test
    void everyAcknowledgedWriteSurvivesAndEveryCopyAgreesWithOneLogNodePerEntry() {
        assertThat(runSeeds(1)).isEmpty();
    }

    @Test
    void everyAcknowledgedWriteSurvivesAndEveryCopyAgreesWithTwoLogNodesPerEntry() {
        assertThat(runSeeds(2)).isEmpty();
    }

    private static List<String> runSeeds(int multiplicity) {
        List<String> failures = new ArrayList<>();
        for (long seed = 1; seed <= SEEDS; seed++) {
            LedgerSimulation sim = new LedgerSimulation(seed * 7919 + multiplicity, multiplicity);
            String problem = sim.run(1500);
            if (seed <= 3) {
                System.out.println("m=" + multiplicity + " seed " + seed + ": " + sim.outcomes);
            }
            if (problem != null) {
                failures.add(problem);
            }
        }
        return failures;
    }
}
