package org.autodisk.cli;

import java.time.Duration;
import java.util.List;
import org.autodisk.client.AutoDiskClient;
import picocli.CommandLine.Option;

/** The {@code --seeds} option of every command that talks to a running cluster. */
final class SeedsOption {

    @Option(names = "--seeds", split = ",", defaultValue = "127.0.0.1:7400",
            description = "Nodes to connect to, host:port[,host:port...] (default: ${DEFAULT-VALUE}).")
    List<String> seeds;

    @Option(names = "--timeout-ms", defaultValue = "10000",
            description = "Request timeout (default: ${DEFAULT-VALUE}).")
    long timeoutMs;

    AutoDiskClient connect() {
        if (timeoutMs < 1) {
            throw new IllegalArgumentException("--timeout-ms must be at least 1 (milliseconds), was " + timeoutMs);
        }
        return AutoDiskClient.builder().seeds(seeds).requestTimeout(Duration.ofMillis(timeoutMs)).build();
    }
}
