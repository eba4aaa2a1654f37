package org.autodisk.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line as a newcomer meets it: wrong input is refused before anything starts, with a message that
 * names the flag, variable or file; errors name what they are about; {@code rules check} prints only its own
 * messages.
 */
class CommandLineIT {

    @TempDir
    Path dir;

    @Test
    void localRefusesAMultiplicityWithoutLogNodesAndStartsNothing() throws Exception {
        Path cluster = dir.resolve("cluster");
        Launcher.Result r = Launcher.run("local", "--log-nodes", "0", "--multiplicity", "2", "--base-port",
                String.valueOf(FreePorts.base(3)), "--dir", cluster.toString());

        assertThat(r.exitCode()).as(r.output()).isEqualTo(2);
        assertThat(r.output()).contains("error: wal.multiplicity 2 (from --multiplicity)", "has 0 log node(s)");
        try (var files = Files.list(cluster)) {
            assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".log"));
        }
    }

    @Test
    void localRefusesAMisspeltVariableAndSplitPointsThatLeaveANodeEmpty() throws Exception {
        String port = String.valueOf(FreePorts.base(3));
        Launcher.Result typo = Launcher.run(Map.of("AUTODISK_QUEUE_WOKERS", "3"), "local", "--base-port", port,
                "--dir", dir.resolve("a").toString());
        assertThat(typo.exitCode()).as(typo.output()).isEqualTo(2);
        assertThat(typo.output()).contains("unknown environment variable AUTODISK_QUEUE_WOKERS: it names",
                "did you mean AUTODISK_QUEUE_WORKERS?");

        Launcher.Result split = Launcher.run("local", "--data-nodes", "3", "--split-points", "h", "--base-port",
                port, "--dir", dir.resolve("b").toString());
        assertThat(split.exitCode()).as(split.output()).isEqualTo(2);
        assertThat(split.output()).contains("(from --split-points)", "d3 would own no range");

        Launcher.Result many = Launcher.run(Map.of("AUTODISK_WAL_MULTIPLICITY", "3"), "local", "--log-nodes", "0",
                "--base-port", port, "--dir", dir.resolve("c").toString());
        assertThat(many.output()).contains("wal.multiplicity 3 (from environment variable "
                + "AUTODISK_WAL_MULTIPLICITY)");
    }

    @Test
    void anUnreadableValueFileIsNamedWithItsOption() throws Exception {
        Launcher.Result r = Launcher.run("insert", "big", "--value-file", "/nonexistent");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.output()).contains("error: cannot read --value-file /nonexistent: no such file or directory");
    }

    @Test
    void optionsAreNamedInErrorsNotTheLibrarysFields() throws Exception {
        Launcher.Result order = Launcher.run("traverse", "--from", "z", "--to", "a");
        assertThat(order.exitCode()).isEqualTo(2);
        assertThat(order.output()).contains("error: --from z must sort before --to a");
        Launcher.Result timeout = Launcher.run("status", "--timeout-ms", "0");
        assertThat(timeout.exitCode()).isEqualTo(2);
        assertThat(timeout.output()).contains("error: --timeout-ms must be at least 1 (milliseconds), was 0")
                .doesNotContain("PT0S");
    }

    @Test
    void theDemoRemovesItsTemporaryDirectory() throws Exception {
        Launcher.Result demo = Launcher.run("demo", "--base-port", String.valueOf(FreePorts.base(4)));
        assertThat(demo.exitCode()).as(demo.output()).isZero();
        Matcher where = Pattern.compile("the temporary directory (\\S+) is removed").matcher(demo.output());
        assertThat(where.find()).as(demo.output()).isTrue();
        assertThat(Path.of(where.group(1))).doesNotExist();
    }

    @Test
    void rulesCheckPrintsOnlyItsOwnMessagesUnlessVerbose() throws Exception {
        Path rules = Files.createDirectories(dir.resolve("rules"));
        Path broken = Files.writeString(rules.resolve("broken.drl"), "package org.autodisk.rules;\n"
                + "rule \"half\"\nwhen\n    InsertRequested( key == )\nthen\nend\n");

        Launcher.Result quiet = Launcher.run("rules", "check", rules.toString());
        assertThat(quiet.exitCode()).isEqualTo(1);
        assertThat(quiet.output()).contains(broken + ":4:").doesNotContain("Unable to build KieBaseModel")
                .doesNotContain("Parser returned a null Package");

        Launcher.Result verbose = Launcher.run("rules", "check", "--verbose", rules.toString());
        assertThat(verbose.output()).contains(broken + ":4:").contains("Unable to build KieBaseModel");
    }
}
