package org.autodisk.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.core.cluster.RulesReload;
import org.autodisk.rules.RuleEngine;
import org.autodisk.rules.RuleError;
import org.autodisk.rules.RuleSource;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code autodisk rules check|reload}: validate a rules directory offline, or reload the rules of a cluster. */
@Command(name = "rules", footer = "  autodisk rules check ./my-rules",
        description = "Check rule files, or reload the rules of every node.",
        subcommands = {RulesCommand.Check.class, RulesCommand.Reload.class})
final class RulesCommand {

    /** {@code rules check DIR}: compiles the shipped rules with a directory's files, as a node would. */
    @Command(name = "check", footer = "  autodisk rules check ./my-rules",
            description = "Compile a rules directory (with the shipped rules) and print errors "
            + "with file and line; exit 1 if there are any.")
    static final class Check implements Callable<Integer> {

        @Parameters(index = "0", description = "The rules directory (.drl files).")
        Path dir;

        @Option(names = "--no-shipped", description = "Compile the directory alone, as with rules.shipped: false.")
        boolean noShipped;

        @Option(names = "--verbose", description = "Also show the rule compiler's own log (Drools's internal "
                + "messages about the same errors).")
        boolean verbose;

        @Override
        public Integer call() throws IOException {
            if (!Files.isDirectory(dir)) {
                System.err.println("error: " + dir + " is not a directory");
                return 2;
            }
            if (!verbose) {
                quiet("org.drools");
                quiet("org.kie");
            }
            List<RuleSource> sources = noShipped ? RuleSource.directory(dir) : RuleSource.shippedAnd(dir);
            List<RuleError> errors = RuleEngine.validate(sources);
            errors.forEach(e -> System.out.println(e));
            System.out.println(errors.isEmpty() ? "ok: " + sources.size() + " rule files compile ("
                    + sources.stream().map(RuleSource::name).toList() + ")"
                    : errors.size() + " error(s) in the rules of " + dir);
            return errors.isEmpty() ? 0 : 1;
        }

        /**
         * Drools logs its own account of every compile error; ours, with file and line, is the one to read. Every
         * configured logger under the prefix is silenced too (logback.xml sets some of them explicitly).
         */
        private static void quiet(String prefix) {
            if (LoggerFactory.getILoggerFactory() instanceof ch.qos.logback.classic.LoggerContext context) {
                context.getLogger(prefix).setLevel(ch.qos.logback.classic.Level.OFF);
                context.getLoggerList().stream().filter(l -> l.getName().startsWith(prefix + "."))
                        .forEach(l -> l.setLevel(ch.qos.logback.classic.Level.OFF));
            }
        }
    }

    /** {@code rules reload --seeds ...}: every node recompiles its rules directory; all switch, or none. */
    @Command(name = "reload", footer = "  autodisk rules reload --seeds 127.0.0.1:7400",
            description = "Reload the rules of every node from its rules.dir: all nodes switch "
            + "if all compile, else none does and the errors are printed; exit 1 then.")
    static final class Reload implements Callable<Integer> {

        @Mixin
        SeedsOption seeds;

        @Override
        public Integer call() {
            try (AutoDiskClient client = seeds.connect()) {
                RulesReload result = client.reloadRules();
                result.nodes().forEach(n -> System.out.println(n.id() + ": " + describe(n)));
                System.out.println(result.installed() ? "reloaded: the new rules are in force"
                        : "not reloaded: every node keeps its old rules");
                return result.installed() ? 0 : 1;
            }
        }

        private static String describe(RulesReload.NodeReload n) {
            if (!n.reachable()) {
                return "unreachable (" + String.join("; ", n.errors()) + "); it loads its rules when it starts";
            }
            return n.errors().isEmpty() ? n.files() + " rule files compiled" : String.join("\n    ", n.errors());
        }
    }
}
