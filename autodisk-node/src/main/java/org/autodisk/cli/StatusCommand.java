package org.autodisk.cli;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.core.cluster.ClusterStatus;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code autodisk status}: the cluster map as a table, or JSON. */
@Command(name = "status", footer = "  autodisk status --seeds 127.0.0.1:7400",
        description = "Show the cluster map: nodes, roles, stream counts, ranges and owners.")
final class StatusCommand implements Callable<Integer> {

    @Mixin
    SeedsOption seeds;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Option(names = "--check", description = "Health check of the first seed: exit 0 if it serves with the cluster "
            + "metadata, else print why and exit 1.")
    boolean check;

    @Override
    public Integer call() {
        try (AutoDiskClient client = seeds.connect()) {
            ClusterStatus status = client.status();
            if (check) {
                return check(status);
            }
            System.out.print(json ? new String(status.toJson(), StandardCharsets.UTF_8) + "\n"
                    : StatusTable.render(status));
            return 0;
        }
    }

    private static int check(ClusterStatus status) {
        String problem = StatusTable.unhealthy(status);
        System.out.println(problem == null ? "healthy: node " + status.reportedBy() + " serves "
                + status.ranges().size() + " ranges at metadata v" + status.mapVersion() : "unhealthy: " + problem);
        return problem == null ? 0 : 1;
    }
}
