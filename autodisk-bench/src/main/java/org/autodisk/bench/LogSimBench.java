package org.autodisk.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import org.autodisk.node.ledger.LedgerSimulations;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code autodisk bench log-sim}: many seeded schedules of the log simulation (docs/log-simulation.md), each an
 * owner writing through ledgers on three log nodes with random faults, then checked against the invariants. Prints
 * progress, the seed and the replay command of every schedule that breaks an invariant, and a summary; exits 1 if
 * any did. Schedule {@code i} plays seed {@code first + i} with the multiplicities taken in turn, so a whole run is
 * replayed by its first seed and one schedule by its own seed with {@code --schedules 1}.
 */
@Command(name = "log-sim", footer = "  autodisk bench log-sim --schedules 1000",
        description = "Seeded schedules of the log protocol with random faults; prints the seed of any failure.")
final class LogSimBench implements Callable<Integer> {

    @Option(names = "--schedules", defaultValue = "200", description = "Schedules to play (default: ${DEFAULT-VALUE}).")
    int schedules;

    @Option(names = "--seed", description = "Seed of the first schedule; the next ones take the following seeds "
            + "(default: chosen at random, and printed).")
    Long seed;

    @Option(names = "--multiplicity", split = ",", defaultValue = "1,2", description = "Log nodes per entry, taken "
            + "in turn by the schedules (default: ${DEFAULT-VALUE}).")
    int[] multiplicities;

    @Option(names = "--faulty-ms", defaultValue = "1500", description = "Simulated milliseconds of faults per "
            + "schedule before it settles (default: ${DEFAULT-VALUE}).")
    long faultyMillis;

    @Option(names = "--verbose", description = "Keep the log lines of the protocol (off by default).")
    boolean verbose;

    private final List<LedgerSimulations.Schedule> failures = new ArrayList<>();
    private final long[] told = new long[4];

    @Override
    public Integer call() {
        if (schedules < 1 || multiplicities.length == 0 || Arrays.stream(multiplicities)
                .anyMatch(m -> m < 1 || m > 3)) {
            System.err.println("log-sim: --schedules must be at least 1, and each --multiplicity 1, 2 or 3 (the "
                    + "simulation has three log nodes)");
            return 2;
        }
        long first = seed != null ? seed : ThreadLocalRandom.current().nextLong(1, 1L << 40);
        if (!verbose) {
            quiet("org.autodisk.node.ledger");
        }
        System.out.println("log-sim: " + schedules + " schedules from seed " + first + ", multiplicity "
                + join(multiplicities) + ", " + faultyMillis + " ms of faults each");
        ProgressBar bar = ProgressBar.onStderr();
        long t0 = System.nanoTime();
        for (int i = 0; i < schedules; i++) {
            LedgerSimulations.Schedule s = LedgerSimulations.run(first + i, multiplicities[i % multiplicities.length],
                    faultyMillis);
            record(s, bar);
            bar.update(progress(i + 1), i + 1, schedules);
        }
        bar.finish();
        summarize(first, (System.nanoTime() - t0) / 1e9);
        return failures.isEmpty() ? 0 : 1;
    }

    private void record(LedgerSimulations.Schedule s, ProgressBar bar) {
        told[0] += s.writes();
        told[1] += s.acknowledged();
        told[2] += s.unknown();
        told[3] += s.definitelyFailed();
        if (s.failed()) {
            failures.add(s);
            bar.finish();
            System.out.println("FAILED (m=" + s.multiplicity() + ") " + s.problem());
            System.out.println("  replay: " + replay(s));
        }
    }

    /** A phase that changes every tenth of the run or on a failure, so redirected output gets a line then. */
    private String progress(int done) {
        int step = Math.max(1, schedules / 10);
        return (done / step * step) + " of " + schedules + " schedules, " + failures.size() + " failed";
    }

    private String replay(LedgerSimulations.Schedule s) {
        return "./autodisk bench log-sim --schedules 1 --seed " + s.seed() + " --multiplicity " + s.multiplicity()
                + (faultyMillis != LedgerSimulations.DEFAULT_FAULTY_MILLIS ? " --faulty-ms " + faultyMillis : "")
                + " --verbose";
    }

    private void summarize(long first, double seconds) {
        System.out.printf(Locale.ROOT, "log-sim: %d schedules (seeds %d..%d) in %.1f s (%.1f schedules/s): %s%n",
                schedules, first, first + schedules - 1, seconds, schedules / seconds,
                failures.isEmpty() ? "every invariant held" : failures.size() + " FAILED");
        System.out.printf(Locale.ROOT, "writes: %d; told acknowledged %d, outcome unknown %d, failed (never sent) "
                + "%d%n", told[0], told[1], told[2], told[3]);
        if (!failures.isEmpty()) {
            System.out.println("failed seeds: " + failures.stream().map(f -> f.seed() + " (m=" + f.multiplicity()
                    + ")").toList() + "; replay one with --schedules 1 --seed S --multiplicity M --verbose");
        }
    }

    private static String join(int[] values) {
        StringBuilder b = new StringBuilder();
        for (int v : values) {
            b.append(b.length() == 0 ? "" : ",").append(v);
        }
        return b.toString();
    }

    /** The protocol logs every ensemble change and recovery: thousands of lines per schedule. */
    private static void quiet(String prefix) {
        if (LoggerFactory.getILoggerFactory() instanceof ch.qos.logback.classic.LoggerContext context) {
            context.getLogger(prefix).setLevel(ch.qos.logback.classic.Level.OFF);
        }
    }
}
