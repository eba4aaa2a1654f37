package org.autodisk.cli;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.core.cluster.RangesReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code autodisk ranges}: every range, one line each, or JSON. */
@Command(name = "ranges", footer = "  autodisk ranges --seeds 127.0.0.1:7400",
        description = "List every range: id, span, owner, backup, log nodes, epoch, generation, "
        + "state, keys, bytes.")
final class RangesCommand implements Callable<Integer> {

    @Mixin
    SeedsOption seeds;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Override
    public Integer call() {
        try (AutoDiskClient client = seeds.connect()) {
            RangesReport ranges = client.admin().ranges();
            System.out.print(json ? new String(ranges.toJson(), StandardCharsets.UTF_8) + "\n"
                    : AdminTables.ranges(ranges));
            return 0;
        }
    }
}
