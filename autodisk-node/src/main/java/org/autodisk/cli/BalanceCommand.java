package org.autodisk.cli;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.core.cluster.BalanceReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code autodisk balance}: one balance round, or with {@code --dry-run} what it would move and why. */
@Command(name = "balance", footer = {"  autodisk balance --seeds 127.0.0.1:7400 --dry-run",
    "  autodisk balance --seeds 127.0.0.1:7400"},
        description = "Evaluate the balance rules (balance.drl) on the cluster's load now: print every data node's "
                + "share and the ranges the rules would move, and why. Without --dry-run the moves start (the "
                + "balancing data node also runs a round every balance.check-ms by itself).")
final class BalanceCommand implements Callable<Integer> {

    private static final String NODE_ROW = "%-8s %-10s %6s %12s %14s %10s %6s%n";

    @Mixin
    SeedsOption seeds;

    @Option(names = "--dry-run", description = "Only show what the rules would move; move nothing.")
    boolean dryRun;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Override
    public Integer call() {
        try (AutoDiskClient client = seeds.connect()) {
            BalanceReport report = client.admin().balance(dryRun);
            System.out.print(json ? new String(report.toJson(), StandardCharsets.UTF_8) + "\n" : table(report));
            return 0;
        }
    }

    private static String disk(Double usedPercent) {
        return usedPercent == null || usedPercent < 0 ? "?" : String.format(Locale.ROOT, "%.0f%%", usedPercent);
    }

    static String table(BalanceReport r) {
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "balance round by %s at metadata v%d%s: "
                + "%d migration(s) under way, average %d bytes per data node%n", r.reportedBy(), r.version(),
                r.dryRun() ? " (dry run)" : "", r.migrationsUnderWay(), r.averageBytes()));
        out.append(String.format(Locale.ROOT, NODE_ROW, "NODE", "STATE", "RANGES", "STREAMS", "BYTES", "REQ/S",
                "DISK"));
        for (BalanceReport.Node n : r.nodes()) {
            out.append(String.format(Locale.ROOT, NODE_ROW, n.id(), n.state(), n.ranges(), known(n.keys()),
                    known(n.bytes()), n.requestsPerSecond() < 0 ? "?" : String.format(Locale.ROOT, "%.0f",
                            n.requestsPerSecond()), disk(n.diskUsedPercent())));
        }
        if (r.proposals().isEmpty()) {
            return out.append("the rules propose no move\n").toString();
        }
        for (BalanceReport.Proposal p : r.proposals()) {
            out.append(String.format(Locale.ROOT, "range %d %s: %s -> %s: %s%s%n    because %s%n", p.rangeId(),
                    p.span(), p.from(), p.to(), p.outcome(), p.migrationId() >= 0 ? " as migration "
                            + p.migrationId() : "", p.reason().isEmpty() ? "(the rule gave no reason)" : p.reason()));
        }
        return out.toString();
    }

    private static String known(long v) {
        return v < 0 ? "?" : Long.toString(v);
    }
}
