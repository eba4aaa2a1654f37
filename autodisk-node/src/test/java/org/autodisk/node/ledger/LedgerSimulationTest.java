package org.autodisk.node.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Seeded schedules of the ledger protocol with random faults, a bounded number in CI (more with
 * {@code -Dautodisk.sim.seeds=N}); a failure prints the seed, and {@code ./autodisk bench log-sim --schedules 1
 * --seed S --multiplicity M} (or {@code LedgerSimulations.run(S, M, 1500)}) replays it exactly. The named scenarios
 * are in {@link LedgerScenariosTest} and {@link LedgerFencingScenariosTest}.
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
            LedgerSimulations.Schedule s = LedgerSimulations.run(seed * 7919 + multiplicity, multiplicity,
                    LedgerSimulations.DEFAULT_FAULTY_MILLIS);
            if (seed <= 3) {
                System.out.println("m=" + multiplicity + " seed " + s.seed() + ": " + s.acknowledged()
                        + " acknowledged, " + s.unknown() + " unknown, " + s.definitelyFailed() + " failed of "
                        + s.writes() + " writes");
            }
            if (s.failed()) {
                failures.add(s.problem() + " (replay: ./autodisk bench log-sim --schedules 1 --seed " + s.seed()
                        + " --multiplicity " + multiplicity + ")");
            }
        }
        return failures;
    }
}
