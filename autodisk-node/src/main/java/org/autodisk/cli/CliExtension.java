package org.autodisk.cli;

/**
 * A subcommand that is not part of the node: found on the class path through {@link java.util.ServiceLoader}
 * (a {@code META-INF/services/org.autodisk.cli.CliExtension} entry), as {@code bench} from autodisk-bench. The
 * node's image carries none.
 */
public interface CliExtension {

    /**
     * Returns the subcommand.
     *
     * @return an object annotated with picocli's {@code @Command}
     */
    Object command();
}
