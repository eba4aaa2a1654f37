package org.autodisk.bench;

import picocli.CommandLine.Command;

/** {@code autodisk bench ...}: measurements of a running or freshly started local cluster. */
@Command(name = "bench", footer = "  autodisk bench forward", description = "Measure the cluster.",
        subcommands = {ForwardBench.class, ReplayBench.class, RulesBench.class, InsertBench.class, SplitBench.class,
                JournalBench.class, LedgerBench.class, LogSimBench.class, CompareBench.class, MigrateBench.class,
                DirectoryBench.class, DirectoryLiveBench.class, FaultsBench.class,
                FailoverBench.class})
final class BenchCommand {
}
