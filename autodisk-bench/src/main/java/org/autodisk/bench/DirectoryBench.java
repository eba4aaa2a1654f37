package org.autodisk.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import org.autodisk.node.directory.fatbtree.DirectorySimulation;
import org.autodisk.node.directory.fatbtree.Layout;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code autodisk bench directory}: the Fat-Btree paper's three configurations side by side - the Fat-Btree, a fully
 * replicated index, a single index node - simulated over in-memory channels at several cluster sizes: messages and
 * bytes per leaf split and per leaf move, index bytes per node, routing hops. Prints a table; {@code --report DIR}
 * writes it as CSV, Markdown and PNG charts.
 */
@Command(name = "directory", footer = "  autodisk bench directory --nodes 4,16,64,256 --report docs/results/x",
        description = "Fat-Btree vs replicated vs single-index directory, simulated: update messages, index bytes, "
                + "hops.")
final class DirectoryBench implements Callable<Integer> {

    @Option(names = "--nodes", split = ",", defaultValue = "4,16,64,256", description = "Cluster sizes "
            + "(default: ${DEFAULT-VALUE}).")
    int[] nodes;

    @Option(names = "--leaves-per-node", defaultValue = "64", description = "Ranges per node once grown by splits "
            + "(default: ${DEFAULT-VALUE}).")
    int leavesPerNode;

    @Option(names = "--fanout", defaultValue = "64", description = "Entries per index page at most "
            + "(default: ${DEFAULT-VALUE}).")
    int fanout;

    @Option(names = "--splits", defaultValue = "2000", description = "Measured leaf splits (default: "
            + "${DEFAULT-VALUE}).")
    int splits;

    @Option(names = "--moves", defaultValue = "500", description = "Measured leaf moves to the neighbour in key "
            + "order (default: ${DEFAULT-VALUE}).")
    int moves;

    @Option(names = "--routes", defaultValue = "20000", description = "Routed keys, each from a random node "
            + "(default: ${DEFAULT-VALUE}).")
    int routes;

    @Option(names = "--seed", defaultValue = "1", description = "Seed; the same operations play in every layout "
            + "(default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--concurrent-rounds", defaultValue = "50", description = "Rounds of concurrent changes "
            + "(up to 32 at once) under MARK-OPT's locks, per cluster size (default: ${DEFAULT-VALUE}).")
    int concurrentRounds;

    @Option(names = "--report", description = "Write results.csv, report.md and charts into this directory.")
    Path report;

    @Override
    public Integer call() throws IOException {
        if (fanout < 3 || leavesPerNode < 1 || Arrays.stream(nodes).anyMatch(n -> n < 2)) {
            System.err.println("directory: --fanout must be at least 3, --leaves-per-node at least 1, and every "
                    + "--nodes at least 2");
            return 2;
        }
        List<DirectorySimulation.Figures> all = new ArrayList<>();
        System.out.println(DirectoryReport.HEADER);
        for (int n : nodes) {
            for (Layout layout : Layout.values()) {
                DirectorySimulation.Figures f = DirectorySimulation.run(layout, new DirectorySimulation.Config(n,
                        leavesPerNode, fanout, splits, moves, routes, seed));
                all.add(f);
                System.out.println(DirectoryReport.line(f));
                if (!f.violations().isEmpty()) {
                    System.err.println("directory: copy invariant broken: " + f.violations().get(0));
                    return 1;
                }
            }
        }
        System.out.println(DirectoryReport.ratios(all));
        List<DirectorySimulation.Concurrency> locks = new ArrayList<>();
        for (int n : nodes) {
            DirectorySimulation.Concurrency cc = DirectorySimulation.concurrent(new DirectorySimulation.Config(n,
                    leavesPerNode, fanout, 0, 0, 0, seed), Math.min(32, n), concurrentRounds);
            locks.add(cc);
            if (!cc.violations().isEmpty()) {
                System.err.println("directory: concurrent changes broke the copy invariant: " + cc.violations().get(0));
                return 1;
            }
        }
        System.out.println(DirectoryReport.locks(locks));
        if (report != null) {
            Files.createDirectories(report);
            DirectoryReport.write(all, locks, report);
            System.out.println("report: " + report.resolve(DirectoryReport.MARKDOWN));
        }
        return 0;
    }
}
