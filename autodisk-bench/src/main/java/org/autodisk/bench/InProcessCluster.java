package org.autodisk.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.autodisk.node.AutoDiskNode;
import org.autodisk.node.config.NodeConfig;

/**
 * Data and log nodes started in this process on loopback (RocksDB stores, log segments and journals under one
 * directory), for benchmarks that drive a node's internals directly.
 */
final class InProcessCluster implements AutoCloseable {

    private static final int METADATA_PORT_OFFSET = 1000;

    private final Map<String, AutoDiskNode> nodes = new LinkedHashMap<>();

    private InProcessCluster() {
    }

    /**
     * Starts log nodes l1..lM, then data nodes d1..dN, and waits until the metadata is created.
     *
     * @param dir       under which each node keeps its data
     * @param dataNodes how many data nodes
     * @param logNodes  how many log nodes
     * @return the cluster
     * @throws InterruptedException if interrupted while a node starts
     */
    static InProcessCluster start(Path dir, int dataNodes, int logNodes) throws InterruptedException {
        List<String> members = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        for (int i = 1; i <= logNodes; i++) {
            ids.add("l" + i);
            members.add("l" + i + "=log@127.0.0.1:" + freePort());
        }
        for (int i = 1; i <= dataNodes; i++) {
            ids.add("d" + i);
            members.add("d" + i + "=data@127.0.0.1:" + freePort());
        }
        InProcessCluster c = new InProcessCluster();
        try {
            for (String id : ids) {
                c.nodes.put(id, AutoDiskNode.builder(config(dir, id, members)).start());
            }
            c.awaitMetadata();
        } catch (InterruptedException | RuntimeException e) {
            c.close();
            throw e;
        }
        return c;
    }

    private static NodeConfig config(Path dir, String id, List<String> members) {
        Map<String, Object> cfg = new HashMap<>();
        cfg.put("node.id", id);
        cfg.put("cluster.nodes", members);
        cfg.put("cluster.secret", "bench-cluster-secret-0123456789abcdef");
        cfg.put("store.engine", "rocksdb");
        cfg.put("node.data-dir", dir.resolve(id).toString());
        cfg.put("metadata.port-offset", METADATA_PORT_OFFSET);
        return NodeConfig.of(cfg);
    }

    /** Waits until every node applied the cluster's creation (its directory is then ready). */
    private void awaitMetadata() throws InterruptedException {
        List<CompletableFuture<Void>> created = new ArrayList<>();
        for (AutoDiskNode n : nodes.values()) {
            CompletableFuture<Void> bootstrapped = new CompletableFuture<>();
            n.metadata().subscribe(state -> {
                if (state.bootstrapped()) {
                    bootstrapped.complete(null);
                }
            });
            created.add(bootstrapped);
        }
        try {
            CompletableFuture.allOf(created.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("the cluster's metadata was not created within 60 s", e);
        }
    }

    /**
     * Returns a node.
     *
     * @param id its id
     * @return the node
     */
    AutoDiskNode node(String id) {
        return nodes.get(id);
    }

    /** A free loopback port (and the one of its metadata replica) below the kernel's ephemeral range. */
    private static int freePort() {
        Random random = new Random();
        for (int attempt = 0; attempt < 200; attempt++) {
            int port = 20_000 + random.nextInt(6_000);
            if (bindable(port) && bindable(port + METADATA_PORT_OFFSET)) {
                return port;
            }
        }
        throw new UncheckedIOException(new IOException("no free port pair found in 20000..27000"));
    }

    private static boolean bindable(int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public void close() {
        List<AutoDiskNode> reversed = new ArrayList<>(nodes.values());
        java.util.Collections.reverse(reversed);
        reversed.forEach(AutoDiskNode::close);
    }
}
