package org.autodisk.cli;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.autodisk.client.AutoDiskAdmin;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.core.cluster.MigrationsReport;
import org.autodisk.core.cluster.RangeStatus;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code autodisk migrations}: the migrations under way. */
@Command(name = "migrations", footer = "  autodisk migrations --seeds 127.0.0.1:7400",
        description = "List the migrations under way: id, range, source, target, phase, keys and bytes copied, "
                + "throttle and ETA.")
final class MigrationsCommand implements Callable<Integer> {

    @Mixin
    SeedsOption seeds;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Override
    public Integer call() {
        try (AutoDiskClient client = seeds.connect()) {
            MigrationsReport report = client.admin().migrations();
            System.out.print(json ? new String(report.toJson(), StandardCharsets.UTF_8) + "\n"
                    : MigrationTables.table(report, rangeBytes(client.admin())));
            return 0;
        }
    }

    /** The bytes each range holds on its owner, as RANGES measures them. */
    static Map<Integer, Long> rangeBytes(AutoDiskAdmin admin) {
        Map<Integer, Long> out = new HashMap<>();
        for (RangeStatus r : admin.ranges().ranges()) {
            out.put(r.id(), r.bytes());
        }
        return out;
    }
}
