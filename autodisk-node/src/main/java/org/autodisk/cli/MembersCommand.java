package org.autodisk.cli;

import org.autodisk.client.AutoDiskAdmin;
import org.autodisk.core.cluster.MembersReport;
import picocli.CommandLine.Command;

/** {@code autodisk members}: every member with its state and metadata replica, or JSON. */
@Command(name = "members", footer = "  autodisk members --seeds 127.0.0.1:7400",
        description = "List every member: role, address, state, whether it votes on the "
        + "metadata, and what its metadata replica is now.")
final class MembersCommand extends ReportCommand<MembersReport> {

    @Override
    MembersReport fetch(AutoDiskAdmin admin) {
        return admin.members();
    }

    @Override
    byte[] toJson(MembersReport report) {
        return report.toJson();
    }

    @Override
    String table(MembersReport report) {
        return AdminTables.members(report);
    }
}
