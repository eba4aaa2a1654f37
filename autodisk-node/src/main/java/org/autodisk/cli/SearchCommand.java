package org.autodisk.cli;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.core.Keys;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code autodisk search KEY}: prints the value; exit code 1 if there is no such stream. */
@Command(name = "search", footer = "  autodisk search apple --seeds 127.0.0.1:7400",
        description = "Read a stream; exit code 1 if it does not exist.")
final class SearchCommand implements Callable<Integer> {

    @Mixin
    SeedsOption seeds;

    @Parameters(index = "0", description = "Key: text, or 0x<hex>.")
    String key;

    @Override
    public Integer call() {
        try (AutoDiskClient client = seeds.connect()) {
            Optional<byte[]> v = client.search(Keys.parse(key));
            if (v.isEmpty()) {
                System.err.println("not found: " + key);
                return 1;
            }
            System.out.println(new String(v.get(), StandardCharsets.UTF_8));
            return 0;
        }
    }
}
