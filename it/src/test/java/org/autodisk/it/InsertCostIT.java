package org.autodisk.it;

import java.io.IOException;
import java.nio.file.Path;
import org.autodisk.bench.BenchNodes;
import org.autodisk.bench.InsertExperiments;
import org.junit.jupiter.api.Tag;

/**
 * Runs the seed paper's insert-cost experiments ({@code autodisk bench insert}) at a few of the paper's counts and
 * sizes against local clusters of node processes, writes the CSV files, the charts and the report to
 * {@code target/insert-cost/}, and checks that the measurements were produced and agree with each other
 * ({@link InsertCostChecks}). Tagged {@code full}: left out of the default build, which makes the same checks on
 * containers ({@code InsertCostContainersIT}); {@code -Dsurefire.excludedGroups=} runs it.
 */
@Tag("full")
class InsertCostIT extends InsertCostChecks {

    /** Four clusters, ten ports apart, of up to four nodes. */
    private static final int PORTS = 34;

    InsertCostIT() {
        super("local processes");
    }

    @Override
    InsertExperiments.Settings settings() throws IOException {
        return seedSizes(FreePorts.base(PORTS));
    }

    @Override
    BenchNodes nodes(Path dir, InsertExperiments.Settings settings) {
        return BenchNodes.localProcesses(dir, settings.basePort(), false);
    }

    @Override
    Path out() {
        return Path.of("target", "insert-cost");
    }

    @Override
    String command() {
        return seedSizesCommand("InsertCostIT");
    }
}
