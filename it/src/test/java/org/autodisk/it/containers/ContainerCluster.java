package org.autodisk.it.containers;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.model.ContainerNetwork;
import org.autodisk.client.AutoDiskClient;
import org.awaitility.Awaitility;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.Network;
import org.testcontainers.images.builder.Transferable;
import org.testcontainers.lifecycle.Startables;

/**
 * A running {@link ClusterTopology}: one {@link AutoDiskNodeContainer} per node on a shared Docker network.
 * Closing it stops every container (saving its log) and removes the network and the named volumes.
 */
public final class ContainerCluster implements AutoCloseable {

    /** Where a node finds {@link ClusterTopology#configYaml()} in its container. */
    static final String CONFIG_FILE = "/tmp/autodisk-node.yaml";

    private final ClusterTopology topology;
    private final String image;
    private final String runId = UUID.randomUUID().toString().substring(0, 8);
    private final Network network = Network.newNetwork();
    private final Map<String, AutoDiskNodeContainer> nodes = new LinkedHashMap<>();
    private final List<String> volumes = new ArrayList<>();
    private final Set<String> stopped = ConcurrentHashMap.newKeySet();

    private ContainerCluster(ClusterTopology topology, String image) {
        this.topology = topology;
        this.image = image;
    }

    static ContainerCluster start(ClusterTopology topology, String image) {
        ContainerCluster cluster = new ContainerCluster(topology, image);
        try {
            for (String id : topology.nodeIds()) {
                cluster.nodes.put(id, cluster.newContainer(id));
            }
            long start = System.nanoTime();
            Startables.deepStart(cluster.nodes.values()).join();
            topology.nodeIds().forEach(cluster::awaitMetadata);
            System.err.printf("[container ITs] started %s in %.1f s%n", topology, (System.nanoTime() - start) / 1e9);
            return cluster;
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    private AutoDiskNodeContainer newContainer(String id) {
        AutoDiskNodeContainer c = new AutoDiskNodeContainer(image, id, topology.role(id))
                .withNetwork(network)
                .withLogPrefix(topology.name())
                .withEnv(topology.nodeEnvironment());
        if (topology.hostPortBase() > 0) {
            int index = topology.nodeIds().indexOf(id);
            if (index < 0) {
                throw new IllegalArgumentException("no fixed host port for " + id + ": not in " + topology.nodeIds());
            }
            c.setPortBindings(List.of((topology.hostPortBase() + index) + ":" + AutoDiskNodeContainer.PORT));
        }
        if (!topology.configYaml().isEmpty()) {
            c.withCopyToContainer(Transferable.of(topology.configYaml()), CONFIG_FILE)
                    .withCommand("node", "--config", CONFIG_FILE);
        }
        if (topology.persistentStores()) {
            String volume = "autodisk-it-" + topology.name() + "-" + runId + "-" + id;
            if (!volumes.contains(volume)) {
                volumes.add(volume);
            }
            c.withDataVolume(volume);
        }
        return c;
    }

    /** @return the topology this cluster runs */
    public ClusterTopology topology() {
        return topology;
    }

    /**
     * One node's container.
     *
     * @param id the node id
     * @return its container (the current one, after a restart)
     */
    public AutoDiskNodeContainer node(String id) {
        AutoDiskNodeContainer c = nodes.get(id);
        if (c == null) {
            throw new IllegalArgumentException("no node " + id + " in " + nodes.keySet());
        }
        return c;
    }

    /**
     * A client whose seeds are the given nodes' published ports, in that order.
     *
     * @param ids node ids (the first reachable one is used)
     * @return a new client; close it
     */
    public AutoDiskClient client(String... ids) {
        List<String> seeds = new ArrayList<>();
        for (String id : ids) {
            seeds.add(node(id).clientAddress());
        }
        return AutoDiskClient.builder().seeds(seeds).requestTimeout(Duration.ofSeconds(20)).build();
    }

    /**
     * Kills a node's container ({@code docker kill}), keeping its volume.
     *
     * @param id the node id
     */
    public void kill(String id) {
        node(id).kill();
    }

    /**
     * Starts a new container for a node, on its old volume when stores are persistent, and waits until it serves.
     * The old container must be gone (see {@link #kill(String)}).
     *
     * @param id the node id
     * @return the new container
     */
    public AutoDiskNodeContainer restart(String id) {
        AutoDiskNodeContainer old = node(id);
        if (old.getContainerId() != null) {
            throw new IllegalStateException(id + " is still running: kill it first");
        }
        AutoDiskNodeContainer fresh = newContainer(id);
        nodes.put(id, fresh);
        fresh.start();
        awaitMetadata(id);
        return fresh;
    }

    /**
     * Kills a node's process ({@code docker kill}, SIGKILL) and keeps its stopped container, to be started again
     * with {@link #startAgain}: same data, same published port when {@link ClusterTopology#hostPortBase()} is set.
     *
     * @param id the node id
     */
    public void crash(String id) {
        docker().killContainerCmd(node(id).getContainerId()).exec();
    }

    /**
     * Starts a node's container that {@link #crash} stopped, and waits until it follows the metadata.
     *
     * @param id the node id
     */
    public void startAgain(String id) {
        docker().startContainerCmd(node(id).getContainerId()).exec();
        Awaitility.await(id + " serves again after its start").atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofMillis(200)).ignoreExceptions().until(() -> {
                    try (AutoDiskClient c = client(id)) {
                        return !c.status().ranges().isEmpty();
                    }
                });
    }

    /**
     * Freezes every process of a node's container ({@code docker pause}: the cgroup freezer, like SIGSTOP). The
     * freezer can give up ("unable to freeze", seen in CI while the node was inside an fsync); it is then tried twice
     * more, and if it still fails the node's process (the container's first process) gets SIGSTOP instead, which
     * freezes it the same way for the cluster ({@code -Dcontainers.pause=sigstop} always does that).
     *
     * @param id the node id
     */
    public void pause(String id) {
        String container = node(id).getContainerId();
        boolean freezer = !"sigstop".equals(System.getProperty("containers.pause"));
        for (int attempt = 1; freezer && attempt <= 3; attempt++) {
            try {
                docker().pauseContainerCmd(container).exec();
                return;
            } catch (DockerException e) {
                System.out.println("[containers] docker pause " + id + " failed (attempt " + attempt + "): "
                        + e.getMessage());
            }
        }
        docker().killContainerCmd(container).withSignal("SIGSTOP").exec();
        stopped.add(id);
        System.out.println("[containers] " + id + " stopped by SIGSTOP instead");
    }

    /**
     * Thaws a node's container frozen by {@link #pause} (SIGCONT when it was stopped by a signal).
     *
     * @param id the node id
     */
    public void unpause(String id) {
        String container = node(id).getContainerId();
        if (stopped.remove(id)) {
            docker().killContainerCmd(container).withSignal("SIGCONT").exec();
        } else {
            docker().unpauseContainerCmd(container).exec();
        }
    }

    /**
     * Cuts a node's container off the cluster's network ({@code docker network disconnect}): it runs on, reaches no
     * other node and no client reaches it (its published port leads nowhere) until {@link #connect}.
     *
     * @param id the node id
     */
    public void disconnect(String id) {
        docker().disconnectFromNetworkCmd().withNetworkId(network.getId())
                .withContainerId(node(id).getContainerId()).withForce(true).exec();
    }

    /**
     * Connects a node's container to the cluster's network again, under its node id as alias.
     *
     * @param id the node id
     */
    public void connect(String id) {
        docker().connectToNetworkCmd().withNetworkId(network.getId()).withContainerId(node(id).getContainerId())
                .withContainerNetwork(new ContainerNetwork().withAliases(id)).exec();
    }

    private static DockerClient docker() {
        return DockerClientFactory.instance().client();
    }

    /**
     * Waits until a node follows the cluster metadata (its voters created it and it applied it): before that it
     * serves no stream request.
     *
     * @param id the node id
     */
    public void awaitMetadata(String id) {
        try (AutoDiskClient c = client(id)) {
            Awaitility.await(id + " follows the cluster metadata").atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                    .until(() -> !c.status().ranges().isEmpty());
        }
    }

    @Override
    public void close() {
        for (AutoDiskNodeContainer c : nodes.values()) {
            try {
                c.stop();
            } catch (RuntimeException e) {
                System.err.println("[container ITs] stopping " + c.nodeId() + " failed: " + e);
            }
        }
        try {
            network.close();
        } catch (RuntimeException e) {
            System.err.println("[container ITs] removing the network failed: " + e);
        }
        for (String volume : volumes) {
            try {
                DockerClientFactory.instance().client().removeVolumeCmd(volume).exec();
            } catch (RuntimeException e) {
                System.err.println("[container ITs] removing volume " + volume + " failed: " + e);
            }
        }
    }
}
