package org.autodisk.cli;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.core.cluster.ClusterStatus;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code autodisk status}: the cluster map as a table, or JSON. */
@Command(name = "status", description = "Show the cluster map: nodes, roles, stream counts, ranges and owners.")
final class StatusCommand implements Callable<Integer> {

    @Mixin
    SeedsOption seeds;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Override
    public Integer call() {
        try (AutoDiskClient client = seeds.connect()) {
            ClusterStatus status = client.status();
            System.out.print(json ? new String(status.toJson(), StandardCharsets.UTF_8) + "\n"
                    : StatusTable.render(status));
            return 0;
        }
    }
}
