package org.autodisk.cli;

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
     * Returns the configuration line that sets the multiplicity.
     *
     * @return YAML, one line
     */
    public String yaml() {
        return "wal.multiplicity: " + multiplicity + "\n";
    }
}
