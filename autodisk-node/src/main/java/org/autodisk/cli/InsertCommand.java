package org.autodisk.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.client.Traced;
import org.autodisk.core.Keys;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code autodisk insert KEY VALUE}. */
@Command(name = "insert", footer = "  autodisk insert apple red --seeds 127.0.0.1:7400",
        description = "Create or replace a stream.")
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
        byte[] v = valueFile != null ? read(valueFile) : value.getBytes(StandardCharsets.UTF_8);
        try (AutoDiskClient client = seeds.connect()) {
            Traced<Void> t = client.async().insertTraced(Keys.parse(key), v).join();
            System.out.println(describe(key, v.length, t, client.connectedNode()));
        }
        return 0;
    }

    /** Names the owner that stored the value (the first hop's node) and the node the request entered at. */
    static String describe(String key, int valueBytes, Traced<Void> t, String entry) {
        String owner = t.hops().isEmpty() ? null : t.hops().get(0).nodeId();
        String what = "inserted " + key + " (value of " + valueBytes + " bytes)";
        if (owner == null) {
            return what + ", sent to " + entry;
        }
        return what + ": stored by owner " + owner + (owner.equals(entry) ? "" : ", forwarded by " + entry);
    }

    private static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw CliErrors.unreadable("--value-file", file, e);
        }
    }
}
