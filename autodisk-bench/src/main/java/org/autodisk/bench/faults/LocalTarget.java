package org.autodisk.bench.faults;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.autodisk.cli.LocalCluster;

/** Faults injected into a local cluster's processes by signals; it cannot partition them. */
final class LocalTarget implements FaultTarget {

    private final LocalCluster cluster;
    private final int dataNodes;

    LocalTarget(LocalCluster cluster, int dataNodes) {
        this.cluster = cluster;
        this.dataNodes = dataNodes;
    }

    @Override
    public List<String> ids() {
        return cluster.ids();
    }

    @Override
    public int dataNodes() {
        return dataNodes;
    }

    @Override
    public List<String> seeds() {
        return cluster.addresses().subList(0, dataNodes);
    }

    @Override
    public boolean supports(FaultKind kind) {
        return kind != FaultKind.PARTITION_DATA;
    }

    @Override
    public void kill(int node) throws InterruptedException {
        cluster.kill(node);
    }

    @Override
    public void restart(int node) throws IOException {
        cluster.restart(node);
    }

    @Override
    public void pause(int node) throws IOException {
        cluster.pause(node);
    }

    @Override
    public void resume(int node) throws IOException {
        cluster.resume(node);
    }

    @Override
    public void hook(int node, String file, String content) throws IOException {
        Path dir = hooks(node);
        Files.createDirectories(dir);
        Path tmp = dir.resolve(file + ".tmp");
        Files.writeString(tmp, content);
        Files.move(tmp, dir.resolve(file), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    @Override
    public void unhook(int node, String file) throws IOException {
        Files.deleteIfExists(hooks(node).resolve(file));
    }

    /** The node's {@code fault.hooks-dir}: {@code faults} under its data directory. */
    private Path hooks(int node) {
        return cluster.dir().resolve("data").resolve(cluster.ids().get(node)).resolve(FaultRun.HOOKS_DIR);
    }

    @Override
    public String toString() {
        return "local processes";
    }

    @Override
    public void isolate(int node) {
        throw new UnsupportedOperationException("partition-data needs the container cluster (ContainerFaultsIT): "
                + "local processes share one loopback");
    }

    @Override
    public void reconnect(int node) {
        throw new UnsupportedOperationException("partition-data needs the container cluster (ContainerFaultsIT)");
    }
}
