package org.autodisk.bench.faults;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.autodisk.cli.LocalCluster;
import org.autodisk.core.config.ConfigLayer;
import org.autodisk.node.config.NodeConfigKeys;

/**
 * Faults injected into a local cluster's processes: signals, files in their {@code fault.hooks-dir}; when the cluster
 * was started behind a {@link LinkProxy}, network partitions of one node, one pair or one direction; when its nodes
 * were started on {@link NodeDisks}, file systems filled for real.
 */
final class LocalTarget implements FaultTarget, AutoCloseable {

    /** How far above its address's port a node listens when the partition proxy takes its address. */
    static final int PROXIED_OFFSET = 100;

    private final LocalCluster cluster;
    private final int dataNodes;
    private final LinkProxy proxy;
    private final NodeDisks disks;

    LocalTarget(LocalCluster cluster, int dataNodes, LinkProxy proxy, NodeDisks disks) {
        this.cluster = cluster;
        this.dataNodes = dataNodes;
        this.proxy = proxy;
        this.disks = disks;
    }

    /**
     * Starts the local cluster of a fault run: behind the partition proxy if the run partitions the network, each node
     * on a file system of its own if it fills file systems.
     *
     * @param s        the run
     * @param settings every node's settings
     * @return the target
     * @throws IllegalArgumentException if the run partitions the network and this machine cannot tell which process
     *                                  opened a loopback connection (no Linux {@code /proc}), or fills file systems
     *                                  and cannot mount them (not root)
     * @throws IOException if the cluster or the proxy cannot be started
     */
    static LocalTarget start(FaultRun.Settings s, Map<String, Object> settings) throws IOException {
        List<ConfigLayer> layers = List.of(new ConfigLayer("the fault run", settings));
        boolean partitions = s.kinds().stream().anyMatch(FaultKind::partition);
        if (partitions && !SocketOwners.available()) {
            throw new IllegalArgumentException("partitions of local processes need Linux's /proc (to tell which "
                    + "node opened a connection); run ContainerFaultsIT, or leave the partition faults out");
        }
        List<String> ids = new ArrayList<>();
        for (int i = 1; i <= s.dataNodes() + s.logNodes(); i++) {
            ids.add(i <= s.dataNodes() ? "d" + i : "l" + (i - s.dataNodes()));
        }
        NodeDisks disks = null;
        LinkProxy proxy = null;
        try {
            if (s.kinds().stream().anyMatch(FaultKind::fillsFileSystem)) {
                disks = NodeDisks.mount(s.dir().toAbsolutePath().resolve("data"), ids, NodeDisks.SIZE);
            }
            proxy = partitions ? proxy(s, ids) : null;
            return new LocalTarget(LocalCluster.start(new LocalCluster.Layout(s.dir(), s.dataNodes(), s.logNodes(),
                    s.basePort(), List.of(), partitions ? PROXIED_OFFSET : 0), layers), s.dataNodes(), proxy, disks);
        } catch (IOException | RuntimeException e) {
            if (proxy != null) {
                proxy.close();
            }
            if (disks != null) {
                disks.close();
            }
            throw e;
        }
    }

    /** The proxy in front of every node's address and metadata port. */
    private static LinkProxy proxy(FaultRun.Settings s, List<String> ids) throws IOException {
        LinkProxy proxy = new LinkProxy(new SocketOwners(s.dir(), ids)::node);
        try {
            int meta = NodeConfigKeys.METADATA_PORT_OFFSET.defaultValue();
            for (int i = 0; i < ids.size(); i++) {
                int port = s.basePort() + i;
                proxy.forward(ids.get(i), port, port + PROXIED_OFFSET);
                proxy.forward(ids.get(i), port + meta, port + meta + PROXIED_OFFSET);
            }
            return proxy;
        } catch (IOException | RuntimeException e) {
            proxy.close();
            throw e;
        }
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
        return (!kind.partition() || proxy != null) && (!kind.fillsFileSystem() || disks != null);
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
        return proxy == null ? "local processes" : "local processes behind the partition proxy";
    }

    @Override
    public void isolate(int node) {
        for (int other = 0; other < cluster.ids().size(); other++) {
            if (other != node) {
                cut(node, other);
                cut(other, node);
            }
        }
    }

    @Override
    public void reconnect(int node) {
        for (int other = 0; other < cluster.ids().size(); other++) {
            if (other != node) {
                restore(node, other);
                restore(other, node);
            }
        }
    }

    @Override
    public void cut(int from, int to) {
        proxied().cut(cluster.ids().get(from), cluster.ids().get(to));
    }

    @Override
    public void restore(int from, int to) {
        proxied().restore(cluster.ids().get(from), cluster.ids().get(to));
    }

    private LinkProxy proxied() {
        if (proxy == null) {
            throw new UnsupportedOperationException("this local cluster was started without the partition proxy: "
                    + "ask for a partition fault when the run starts");
        }
        return proxy;
    }

    @Override
    public void fill(int node) throws IOException {
        if (disks == null) {
            throw new UnsupportedOperationException("this local cluster was started without file systems of its "
                    + "nodes' own: ask for an fs-full fault when the run starts");
        }
        disks.fill(cluster.ids().get(node));
    }

    @Override
    public void free(int node) throws IOException {
        if (disks != null) {
            disks.free(cluster.ids().get(node));
        }
    }

    /** Heals every link, stops the cluster, then the proxy, then unmounts the nodes' file systems. */
    @Override
    public void close() {
        try {
            if (proxy != null) {
                proxy.restoreAll();
            }
            cluster.close();
        } finally {
            if (proxy != null) {
                proxy.close();
            }
            if (disks != null) {
                disks.close();
            }
        }
    }
}
