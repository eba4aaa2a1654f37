package org.autodisk.bench;

import java.io.IOException;
import java.nio.file.Path;
import org.autodisk.cli.LocalCluster;

/**
 * How {@link InsertExperiments} starts the nodes of each of its clusters: as separate processes on this machine
 * ({@link #localProcesses}, what {@code autodisk bench insert} uses) or otherwise, e.g. as Docker containers
 * (the integration tests provide that one). The experiments and the report are the same for every kind; every
 * request of an experiment enters at d1.
 */
public interface BenchNodes {

    /**
     * Names the kind of cluster, for the report's title.
     *
     * @return e.g. {@code local processes} or {@code containers}
     */
    String kind();

    /**
     * Describes where and how the nodes run, for the report's set-up (one Markdown sentence, no final period):
     * process or container, JVM flags, network path between client and nodes.
     *
     * @return the description
     */
    String description();

    /**
     * Starts data nodes {@code d1..dN} and log nodes {@code l1..lM} and waits until every node serves.
     *
     * @param label        a short name for the cluster, unique within a run: lower-case letters, digits, dashes
     * @param dataNodes    data nodes (at least 1)
     * @param logNodes     log nodes (0 or more)
     * @param multiplicity {@code wal.multiplicity}: log nodes that hold each change (at most logNodes if any)
     * @param yaml         the rest of every node's configuration besides its id and the member list (YAML)
     * @return the running nodes; close them to stop them
     * @throws IOException if the nodes cannot be started or do not answer
     */
    Nodes start(String label, int dataNodes, int logNodes, int multiplicity, String yaml) throws IOException;

    /**
     * Stops whatever a run left behind after an interrupt (Ctrl-C) while a cluster was starting. By default
     * there is nothing to stop.
     */
    default void abort() {
    }

    /**
     * Local clusters of node processes on 127.0.0.1 ({@link LocalCluster}).
     *
     * @param workDir   where the clusters' files go (one subdirectory per cluster)
     * @param basePort  the first cluster's first port; the next clusters use basePort + 10, + 20, ...
     * @param keepFiles whether to keep the clusters' data and logs after each cluster stops
     * @return the launcher
     */
    static BenchNodes localProcesses(Path workDir, int basePort, boolean keepFiles) {
        return new LocalBenchNodes(workDir, basePort, keepFiles);
    }

    /** The running nodes of one cluster. */
    interface Nodes extends AutoCloseable {

        /**
         * Returns where a client reaches d1, the entry node of every request.
         *
         * @return {@code host:port}
         */
        String entryAddress();

        /** Stops every node and releases what they used (unless the launcher keeps their files). */
        @Override
        void close();
    }
}
