package org.autodisk.cli;

import java.util.concurrent.Callable;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.core.Keys;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code autodisk delete KEY}: exit code 1 if there was no such stream. */
@Command(name = "delete", footer = "  autodisk delete apple --seeds 127.0.0.1:7400",
        description = "Delete a stream; exit code 1 if it did not exist.")
final class DeleteCommand implements Callable<Integer> {

    @Mixin
    SeedsOption seeds;

    @Parameters(index = "0", description = "Key: text, or 0x<hex>.")
    String key;

    @Override
    public Integer call() {
        try (AutoDiskClient client = seeds.connect()) {
            boolean existed = client.delete(Keys.parse(key));
            System.out.println(existed ? "deleted " + key : "not found: " + key);
            return existed ? 0 : 1;
        }
    }
}
