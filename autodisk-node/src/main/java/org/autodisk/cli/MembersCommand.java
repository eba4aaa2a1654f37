package org.autodisk.cli;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.core.cluster.MembersReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code autodisk members}: every member with its state and metadata replica, or JSON. */
@Command(name = "members", footer = "  autodisk members --seeds 127.0.0.1:7400",
        description = "List every member: role, address, state, whether it votes on the "
        + "metadata, and what its metadata replica is now.")
final class MembersCommand implements Callable<Integer> {

    @Mixin
    SeedsOption seeds;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Override
    public Integer call() {
        try (AutoDiskClient client = seeds.connect()) {
            MembersReport members = client.admin().members();
            System.out.print(json ? new String(members.toJson(), StandardCharsets.UTF_8) + "\n"
                    : AdminTables.members(members));
            return 0;
        }
    }
}
