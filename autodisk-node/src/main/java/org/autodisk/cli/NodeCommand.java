package org.autodisk.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.autodisk.node.AutoDiskNode;
import org.autodisk.node.config.NodeConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code autodisk node [--config FILE]}: runs one node until SIGTERM or Ctrl-C, then stops it gracefully.
 * Without a file the configuration comes from {@code AUTODISK_...} environment variables alone.
 */
@Command(name = "node", footer = {"  autodisk node --config d1.yaml",
    "  autodisk node --set node.id=d4 --set cluster.nodes=d4=data@127.0.0.1:7404 --set cluster.join=127.0.0.1:7400 "
            + "--set cluster.secret-file=local-cluster/cluster.secret --set node.data-dir=local-cluster/data"},
        description = "Run one node from a YAML file, --set settings and/or AUTODISK_* environment variables.")
final class NodeCommand implements Callable<Integer> {

    @Option(names = "--config", description = "The node's YAML configuration (default: environment only).")
    Path config;

    @Mixin
    SettingsOption settings;

    @Override
    public Integer call() throws Exception {
        NodeConfig cfg = NodeConfig.load(config, List.of(settings.layer()), System.getenv());
        AutoDiskNode node = AutoDiskNode.start(cfg);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            node.close();
            stopped.countDown();
        }, cfg.nodeId() + "-shutdown"));
        stopped.await();
        return 0;
    }
}
