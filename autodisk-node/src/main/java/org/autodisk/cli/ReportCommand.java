package org.autodisk.cli;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import org.autodisk.client.AutoDiskAdmin;
import org.autodisk.client.AutoDiskClient;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * An admin report printed as a table, or as JSON with {@code --json}: what {@code ranges} and {@code members} share.
 *
 * @param <R> the report
 */
abstract class ReportCommand<R> implements Callable<Integer> {

    @Mixin
    SeedsOption seeds;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    abstract R fetch(AutoDiskAdmin admin);

    abstract byte[] toJson(R report);

    abstract String table(R report);

    @Override
    public Integer call() {
        try (AutoDiskClient client = seeds.connect()) {
            R report = fetch(client.admin());
            System.out.print(json ? new String(toJson(report), StandardCharsets.UTF_8) + "\n" : table(report));
            return 0;
        }
    }
}
