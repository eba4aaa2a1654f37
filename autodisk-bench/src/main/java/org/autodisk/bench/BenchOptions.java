package org.autodisk.bench;

import java.util.Map;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

/**
 * The options the benchmarks share, each declared once: {@link Port} and {@link ValueSize}; {@link PortDefault}
 * gives each benchmark its own first port, so that benchmarks run one after another do not collide.
 */
final class BenchOptions {

    private BenchOptions() {
    }

    /** {@code --base-port}: the first port of the clusters a benchmark starts. */
    static final class Port {

        /** The first port unless the benchmark's {@link PortDefault} says otherwise. */
        static final int DEFAULT_PORT = 7500;

        @Option(names = "--base-port", description = "First port of the started cluster(s); more follow "
                + "(default: ${DEFAULT-VALUE}).")
        int basePort = DEFAULT_PORT;
    }

    /** {@code --value-bytes}: the size of each inserted value. */
    static final class ValueSize {

        @Option(names = "--value-bytes", defaultValue = "1024", description = "Value size (default: ${DEFAULT-VALUE}).")
        int valueBytes;
    }

    /** The default of {@code --base-port}, per benchmark (by its command name). */
    static final class PortDefault implements IDefaultValueProvider {

        private static final Map<String, Integer> PORTS = Map.of("forward", Port.DEFAULT_PORT, "replay", 7550,
                "rules", 7600, "insert", 7600, "splits", 7650);

        @Override
        public String defaultValue(ArgSpec arg) {
            if (arg instanceof OptionSpec o && "--base-port".equals(o.longestName())) {
                return String.valueOf(PORTS.getOrDefault(arg.command().name(), Port.DEFAULT_PORT));
            }
            return null;
        }
    }
}
