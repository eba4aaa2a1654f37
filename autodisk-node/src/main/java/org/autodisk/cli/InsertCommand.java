package org.autodisk.cli;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.core.Keys;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code autodisk insert KEY VALUE}. */
@Command(name = "insert", description = "Create or replace a stream.")
final class InsertCommand implements Callable<Integer> {

    @Mixin
    SeedsOption seeds;

    @Parameters(index = "0", description = "Key: text, or 0x<hex>.")
    String key;

    @Parameters(index = "1", arity = "0..1", description = "Value text (or use --value-file).")
    String value;

    @Option(names = "--value-file", description = "Read the value from this file.")
    Path valueFile;

    @Override
    public Integer call() throws Exception {
        if ((value == null) == (valueFile == null)) {
            throw new IllegalArgumentException("give either a VALUE or --value-file, not both or neither");
        }
        byte[] v = valueFile != null ? Files.readAllBytes(valueFile) : value.getBytes(StandardCharsets.UTF_8);
        try (AutoDiskClient client = seeds.connect()) {
            client.insert(Keys.parse(key), v);
            System.out.println("inserted " + key + " (" + v.length + " bytes) via " + client.connectedNode());
        }
        return 0;
    }
}
