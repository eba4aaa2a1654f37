package org.autodisk.it;

import java.nio.file.Path;
import org.autodisk.bench.BenchNodes;
import org.autodisk.bench.InsertExperiments;
import org.autodisk.it.containers.AutoDiskImage;
import org.autodisk.it.containers.ContainerBenchNodes;
import org.autodisk.it.containers.RequiresDocker;
import org.junit.jupiter.api.Tag;

/**
 * The insert-cost experiments of {@link InsertCostIT} on clusters of Docker containers (one container per node,
 * {@link ContainerBenchNodes}): the same experiments, report and checks, written to
 * {@code target/insert-cost-containers/}.
 *
 * <p>Two system properties turn it into the run behind the committed container report:
 * {@value #QUICK}{@code =true} runs with the settings of {@code autodisk bench insert --quick} (2000 samples,
 * 20,000 warm-up inserts per cluster, the default streams per size) and {@value #OUT}{@code =DIR} writes to DIR
 * (relative to the repository root) instead.
 */
@RequiresDocker
@Tag("full")
class InsertCostContainersIT extends InsertCostChecks {

    /** System property: {@code true} for the settings of {@code autodisk bench insert --quick}. */
    static final String QUICK = "insert.quick";
    /** System property: the output directory, relative to the repository root. */
    static final String OUT = "insert.out";

    InsertCostContainersIT() {
        super("containers");
    }

    private static boolean quick() {
        return Boolean.getBoolean(QUICK);
    }

    @Override
    InsertExperiments.Settings settings() {
        if (quick()) {
            return InsertExperiments.Settings.quick(0).withExtraYaml(VALUE_LIMIT_YAML);
        }
        return seedSizes(0);
    }

    @Override
    BenchNodes nodes(Path dir, InsertExperiments.Settings settings) {
        return new ContainerBenchNodes(AutoDiskImage.name());
    }

    @Override
    Path out() {
        String dir = System.getProperty(OUT);
        return dir == null || dir.isBlank() ? Path.of("target", "insert-cost-containers")
                : AutoDiskImage.repositoryRoot().resolve(dir);
    }

    @Override
    String command() {
        if (quick()) {
            return "InsertCostContainersIT -D" + QUICK + "=true" + (System.getProperty(OUT) == null ? ""
                    : " -D" + OUT + "=" + System.getProperty(OUT)) + " (the settings of ./autodisk bench insert "
                    + "--quick)";
        }
        return seedSizesCommand("InsertCostContainersIT");
    }
}
