package org.autodisk.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.autodisk.cli.LocalCluster;
import org.autodisk.client.AutoDiskClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code autodisk bench migrate}: the cost of moving a range, autonomously (the nodes copy it among themselves) and
 * host-driven (the client reads it and writes it to the target), on the same data and cluster, alternating, with a
 * foreground writer on the moving range and one on another range of the source measured before and during each
 * move.
 */
@Command(name = "migrate", footer = {"  autodisk bench migrate", "  autodisk bench migrate --streams 100000 --repeat 5",
    "  autodisk bench migrate --streams 2000 --value-bytes 1024,4096,16384,32768",
    "  autodisk bench migrate --streams 1000 --repeat 1 --cutovers 50"},
        defaultValueProvider = BenchOptions.PortDefault.class,
        description = "Cost per stream of moving a range: autonomous vs host-driven, with the foreground impact.")
final class MigrateBench implements Callable<Integer> {

    @Option(names = "--seeds", description = "Use this running cluster (at least two data nodes with log nodes; "
            + "default: start 3 data nodes and 2 log nodes, log multiplicity 2).")
    String seeds;

    @Option(names = "--streams", split = ",", defaultValue = "1000,10000,100000",
            description = "Streams in the moved range, one experiment each (default: ${DEFAULT-VALUE}).")
    List<Integer> streams;

    @Option(names = "--value-bytes", split = ",", defaultValue = "1024",
            description = "Value sizes, one experiment each with every stream count (default: ${DEFAULT-VALUE}).")
    List<Integer> valueBytes;

    @Option(names = "--repeat", defaultValue = "3", description = "Moves per mode and experiment, alternating "
            + "autonomous and host-driven (default: ${DEFAULT-VALUE}).")
    int repeat;

    @Option(names = "--rate", description = "Throttle of the autonomous moves in MB/s (0: unthrottled; default: the "
            + "target's migration.rate-bytes).")
    Double rateMb;

    @Option(names = "--cutovers", defaultValue = "0", description = "Then move a range of 1,000 streams this many "
            + "times around the data nodes, unthrottled, to measure the cutover pause (e.g. 50; default: none).")
    int cutovers;

    @Option(names = "--out", description = "Write results.csv and report.md here.")
    Path out;

    @Mixin
    BenchOptions.Port port;

    @Override
    public Integer call() throws Exception {
        MigrateExperiments.Settings settings = new MigrateExperiments.Settings(streams, valueBytes, repeat,
                rateMb == null ? null : (long) (rateMb * 1e6), cutovers);
        if (seeds != null) {
            run(settings, List.of(seeds.split(",")), "the running cluster at " + seeds);
            return 0;
        }
        System.out.println("starting 3 data nodes and 2 log nodes (log multiplicity 2) on 127.0.0.1:"
                + port.basePort + " ...");
        try (LocalCluster c = LocalCluster.start(Files.createTempDirectory("autodisk-bench-migrate"), 3, 2,
                port.basePort, List.of(), MigrateExperiments.CLUSTER_YAML).deleteOnClose()) {
            run(settings, c.addresses(), "local processes: 3 data nodes, 2 log nodes, log multiplicity 2");
        }
        return 0;
    }

    private void run(MigrateExperiments.Settings settings, List<String> addresses, String cluster)
            throws IOException, InterruptedException {
        List<MigrateExperiments.Row> rows = new ArrayList<>();
        try (AutoDiskClient client = AutoDiskClient.builder().seeds(addresses).build()) {
            new MigrateExperiments(client, settings, row -> {
                rows.add(row);
                System.out.println(MigrateReport.line(row));
            }).run();
        }
        System.out.println();
        if (out != null) {
            System.out.println(MigrateOutput.write(rows, settings, cluster, commandLine(), out));
            System.out.println("wrote " + out.resolve("results.csv") + " and " + out.resolve("report.md"));
        } else {
            System.out.println(MigrateReport.markdown(rows, settings, cluster, commandLine()));
        }
    }

    private String commandLine() {
        return "./autodisk bench migrate --streams " + join(streams) + " --value-bytes " + join(valueBytes)
                + " --repeat " + repeat + (rateMb == null ? "" : " --rate " + rateMb)
                + (cutovers == 0 ? "" : " --cutovers " + cutovers);
    }

    private static String join(List<Integer> values) {
        return String.join(",", values.stream().map(String::valueOf).toList());
    }
}
