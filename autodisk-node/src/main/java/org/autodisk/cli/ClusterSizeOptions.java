package org.autodisk.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.autodisk.core.config.ConfigLayer;
import picocli.CommandLine.Option;

/** {@code --data-nodes}, {@code --log-nodes}, {@code --multiplicity}: the shape of a cluster the CLI starts. */
public final class ClusterSizeOptions {

    @Option(names = "--data-nodes", defaultValue = "3", description = "Data nodes (default: ${DEFAULT-VALUE}).")
    int dataNodes;

    @Option(names = "--log-nodes", defaultValue = "0", description = "Log nodes (default: ${DEFAULT-VALUE}).")
    int logNodes;

    @Option(names = "--multiplicity", defaultValue = "1",
            description = "Log nodes each change must reach before it is applied: 1 or 2 (default: ${DEFAULT-VALUE}).")
    int multiplicity;

    /**
     * Returns the number of data nodes.
     *
     * @return {@code --data-nodes}
     */
    public int dataNodes() {
        return dataNodes;
    }

    /**
     * Returns the number of log nodes.
     *
     * @return {@code --log-nodes}
     */
    public int logNodes() {
        return logNodes;
    }

    /**
     * Returns the log multiplicity.
     *
     * @return {@code --multiplicity}
     */
    public int multiplicity() {
        return multiplicity;
    }

    /**
     * Returns the multiplicity as a configuration layer named by its flag.
     *
     * @return the layer
     */
    public ConfigLayer multiplicityLayer() {
        return new ConfigLayer("--multiplicity", Map.of("wal.multiplicity", multiplicity));
    }

    /**
     * Returns the cluster layout these options give.
     *
     * @param dir         where the cluster lives
     * @param basePort    the first node's port
     * @param splitPoints keys where ranges start (empty: even split)
     * @return the layout
     */
    public LocalCluster.Layout layout(Path dir, int basePort, List<String> splitPoints) {
        return new LocalCluster.Layout(dir, dataNodes, logNodes, basePort, splitPoints);
    }

    /**
     * Returns the configuration line that sets the multiplicity.
     *
     * @return YAML, one line
     */
    public String yaml() {
        return "wal.multiplicity: " + multiplicity + "\n";
    }
}
