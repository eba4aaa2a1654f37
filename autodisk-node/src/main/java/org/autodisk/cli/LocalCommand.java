package org.autodisk.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.autodisk.core.config.ConfigLayer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code autodisk local}: a cluster of node processes on 127.0.0.1 until SIGTERM or Ctrl-C. */
@Command(name = "local",
        footer = "  autodisk local --data-nodes 3 --log-nodes 1 --split-points h,p [--directory fat-btree]",
        description = "Start a cluster of separate node processes on 127.0.0.1.")
final class LocalCommand implements Callable<Integer> {

    @Mixin
    ClusterSizeOptions size;

    @Option(names = "--base-port", defaultValue = "7400",
            description = "Port of the first node; the others follow (default: ${DEFAULT-VALUE}).")
    int basePort;

    @Option(names = "--split-points", split = ",",
            description = "Keys where ranges start, e.g. h,p (default: split evenly by first key byte).")
    List<String> splitPoints = List.of();

    @Option(names = "--dir", defaultValue = "local-cluster",
            description = "Configuration, data and logs (default: ${DEFAULT-VALUE}).")
    Path dir;

    @Option(names = "--directory", defaultValue = "range",
            description = "The cluster's directory: range or fat-btree (default: ${DEFAULT-VALUE}); chosen when the "
                    + "cluster is created, a node that joins it later runs the same.")
    String directory;

    @Mixin
    SettingsOption settings;

    @Override
    public Integer call() throws Exception {
        LocalCluster cluster = LocalCluster.start(size.layout(dir, basePort, splitPoints),
                List.of(size.multiplicityLayer(), new ConfigLayer("--directory", Map.of("cluster.directory",
                        directory)), settings.layer()));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("stopping cluster ...");
            cluster.close();
            System.out.println("cluster stopped");
            stopped.countDown();
        }, "local-cluster-shutdown"));
        System.out.println("nodes: " + String.join(", ", cluster.ids()) + "; logs and data in " + dir.toAbsolutePath());
        System.out.println("cluster ready: seeds=" + cluster.seeds());
        System.out.flush();
        stopped.await();
        return 0;
    }
}
