package org.autodisk.cli;

import org.autodisk.client.AutoDiskAdmin;
import org.autodisk.core.cluster.RangesReport;
import picocli.CommandLine.Command;

/** {@code autodisk ranges}: every range, one line each, or JSON. */
@Command(name = "ranges", footer = "  autodisk ranges --seeds 127.0.0.1:7400",
        description = "List every range: id, span, owner, backup, log nodes, epoch, generation, "
        + "state, keys, bytes.")
final class RangesCommand extends ReportCommand<RangesReport> {

    @Override
    RangesReport fetch(AutoDiskAdmin admin) {
        return admin.ranges();
    }

    @Override
    byte[] toJson(RangesReport report) {
        return report.toJson();
    }

    @Override
    String table(RangesReport report) {
        return AdminTables.ranges(report);
    }
}
