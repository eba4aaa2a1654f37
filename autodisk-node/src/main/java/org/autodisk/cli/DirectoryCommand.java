package org.autodisk.cli;

import org.autodisk.client.AutoDiskAdmin;
import org.autodisk.core.cluster.DirectoryReport;
import picocli.CommandLine.Command;

/** {@code autodisk directory}: the index pages and leaves each data node holds, or JSON. */
@Command(name = "directory", footer = "  autodisk directory --seeds 127.0.0.1:7400 [--json]",
        description = "Show the directory as each data node holds it: under the Fat-Btree its index page copies "
        + "(level, fence keys, copy set) and its leaves; under the range map its own ranges.")
final class DirectoryCommand extends ReportCommand<DirectoryReport> {

    @Override
    DirectoryReport fetch(AutoDiskAdmin admin) {
        return admin.directory();
    }

    @Override
    byte[] toJson(DirectoryReport report) {
        return report.toJson();
    }

    @Override
    String table(DirectoryReport report) {
        return DirectoryTable.render(report);
    }
}
