package org.autodisk.cli;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.core.Keys;
import org.autodisk.core.cluster.SplitResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code autodisk split --at KEY}: splits the range holding KEY at KEY. */
@Command(name = "split", footer = "  autodisk split --at m --seeds 127.0.0.1:7400",
        description = "Split the range holding KEY at KEY: both halves stay on the owner, no data "
        + "moves, the generation rises by one.")
final class SplitCommand implements Callable<Integer> {

    @Mixin
    SeedsOption seeds;

    @Option(names = "--at", required = true, description = "The first key of the right half: text, or 0x<hex>.")
    String at;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Override
    public Integer call() {
        try (AutoDiskClient client = seeds.connect()) {
            SplitResult result = client.admin().split(Keys.parse(at));
            System.out.print(json ? new String(result.toJson(), StandardCharsets.UTF_8) + "\n"
                    : AdminTables.split(result));
            return 0;
        }
    }
}
