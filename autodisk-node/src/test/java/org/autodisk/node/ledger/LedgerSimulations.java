package org.autodisk.node.ledger;

import java.util.Map;

/**
 * Runs seeded schedules of the log simulation from outside its package: {@code autodisk bench log-sim} (through
 * autodisk-node's test jar) and {@code LedgerSimulationTest}. A schedule is one seed and one multiplicity; the same
 * pair plays the same schedule again, so a failure is replayed by its seed (docs/log-simulation.md).
 */
public final class LedgerSimulations {

    /** How long a schedule injects faults, in simulated milliseconds, unless told otherwise. */
    public static final long DEFAULT_FAULTY_MILLIS = 1500;

    private LedgerSimulations() {
    }

    /**
     * How one schedule went.
     *
     * @param seed             its seed
     * @param multiplicity     log nodes per entry
     * @param problem          the invariant it broke, or {@code null}
     * @param acknowledged     writes told acknowledged
     * @param unknown          writes told OUTCOME_UNKNOWN
     * @param definitelyFailed writes told failed (definitely not written)
     * @param writes           writes made
     */
    public record Schedule(long seed, int multiplicity, String problem, long acknowledged, long unknown,
            long definitelyFailed, long writes) {

        /**
         * Tells whether the schedule broke an invariant.
         *
         * @return true if it did
         */
        public boolean failed() {
            return problem != null;
        }
    }

    /**
     * Plays one schedule: three log nodes, random faults for a while, then everything restarted and checked. An
     * exception thrown inside counts as a broken schedule (its message is the problem).
     *
     * @param seed         the seed
     * @param multiplicity log nodes per entry (1 or 2)
     * @param faultyMillis how long faults are injected, in simulated milliseconds
     * @return how it went
     */
    public static Schedule run(long seed, int multiplicity, long faultyMillis) {
        LedgerSimulation sim = new LedgerSimulation(seed, multiplicity);
        String problem;
        try {
            problem = sim.run(faultyMillis);
        } catch (RuntimeException e) {
            problem = "seed " + seed + ": " + e;
        }
        Map<SimOwner.Outcome, Long> told = sim.outcomeCounts();
        return new Schedule(seed, multiplicity, problem, told.getOrDefault(SimOwner.Outcome.ACKNOWLEDGED, 0L),
                told.getOrDefault(SimOwner.Outcome.UNKNOWN, 0L), told.getOrDefault(SimOwner.Outcome.FAILED, 0L),
                sim.writes());
    }
}
