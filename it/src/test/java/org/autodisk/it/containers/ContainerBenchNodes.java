package org.autodisk.it.containers;

import java.io.IOException;
import org.autodisk.bench.BenchNodes;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.Container.ExecResult;

/**
 * {@link BenchNodes} as Docker containers: each cluster of the insert experiments is a {@link ContainerCluster}
 * of the image under test on its own bridge network, every node with the heap and collector of the local
 * processes; the client (on the host) reaches d1 through its published port.
 */
public final class ContainerBenchNodes implements BenchNodes {

    /** The JVM flags of {@code autodisk bench insert}'s local node processes. */
    public static final String JAVA_OPTS = "-Xmx512m -XX:+UseParallelGC -XX:MetaspaceSize=128m "
            + "-XX:+ExitOnOutOfMemoryError";

    private final String image;
    private String nodeJvm;

    /**
     * Prepares clusters of one image.
     *
     * @param image the node image, e.g. {@link AutoDiskImage#name()}
     */
    public ContainerBenchNodes(String image) {
        this.image = image;
    }

    @Override
    public String kind() {
        return "containers";
    }

    @Override
    public String description() {
        String docker = DockerClientFactory.instance().client().versionCmd().exec().getVersion();
        return "Every node is a JVM (" + (nodeJvm == null ? "version unknown" : nodeJvm) + ", -Xmx512m, "
                + "ParallelGC) in its own Docker container of the image `" + image + "` (Docker " + docker + "); "
                + "the nodes of a cluster share one bridge network and reach each other by name, the client (a JVM "
                + "on the host) reaches d1 through its published port, and each node keeps its store or log in "
                + "its container's volume on the host's disk";
    }

    @Override
    public Nodes start(String label, int dataNodes, int logNodes, int multiplicity, String yaml)
            throws IOException {
        ClusterTopology.Builder topology = ClusterTopology.builder("bench-" + label).dataNodes(dataNodes)
                .logNodes(logNodes).configYaml(yaml).env("JAVA_OPTS", JAVA_OPTS);
        if (logNodes > 0) {
            topology.multiplicity(multiplicity);
        }
        ContainerCluster cluster;
        try {
            cluster = topology.build().start(image);
        } catch (RuntimeException e) {
            throw new IOException("cluster " + label + " did not start in containers: " + e.getMessage(), e);
        }
        if (nodeJvm == null) {
            nodeJvm = jvmVersion(cluster.node("d1"));
        }
        return new Nodes() {
            @Override
            public String entryAddress() {
                return cluster.node("d1").clientAddress();
            }

            @Override
            public void close() {
                cluster.close();
            }
        };
    }

    /** The first line of {@code java -version} in a node's container, e.g. {@code openjdk version "25.0.3"}. */
    private static String jvmVersion(AutoDiskNodeContainer node) {
        try {
            ExecResult r = node.execInContainer("java", "-version");
            String out = r.getStderr().isBlank() ? r.getStdout() : r.getStderr();
            return out.lines().findFirst().orElse("unknown").trim();
        } catch (IOException | RuntimeException e) {
            return "unknown (" + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown (interrupted)";
        }
    }
}
