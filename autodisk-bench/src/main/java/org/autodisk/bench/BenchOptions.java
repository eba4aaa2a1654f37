package org.autodisk.bench;

import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

/**
 * The options the benchmarks share, each declared once: {@link Port} and {@link ValueSize}. A benchmark whose
 * clusters start at another port than {@link Port#DEFAULT_PORT} says so with a {@link PortDefault}.
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

    /** Gives {@code --base-port} a benchmark's own default, so benchmarks run one after another do not collide. */
    abstract static class PortDefault implements IDefaultValueProvider {

        /**
         * Returns the benchmark's first port.
         *
         * @return the port
         */
        abstract int port();

        @Override
        public String defaultValue(ArgSpec arg) {
            return arg instanceof OptionSpec o && "--base-port".equals(o.longestName()) ? String.valueOf(port())
                    : null;
        }
    }
}
