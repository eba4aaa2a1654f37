package org.autodisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.core.Keys;
import org.autodisk.node.MiniCluster;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code migrate} and {@code migrations} against an in-process cluster: a move waited for, a list, bad input. */
class MigrateCommandTest {

    private record Run(int code, String out, String err) {
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        java.io.PrintStream was = System.out;
        java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
        System.setOut(new java.io.PrintStream(captured, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            int code = cl.execute(args);
            return new Run(code, captured.toString(java.nio.charset.StandardCharsets.UTF_8) + out, err.toString());
        } finally {
            System.setOut(was);
        }
    }

    @Test
    void aRangeMovedFromTheCommandLineIsFollowedUntilItHasEnded() {
        try (MiniCluster c = MiniCluster.start(3, 2, null, Map.of("wal.multiplicity", 2))) {
            AutoDiskClient client = c.clientOf(0);
            for (int i = 0; i < 300; i++) {
                client.insert(Keys.utf8("a" + i), Keys.utf8("v" + i));
            }
            int range = c.node(0).metadata().current().rangeOf(Keys.utf8("a0")).id();
            String seeds = c.address(0);
            Run moved = run("migrate", "--seeds", seeds, "--range", String.valueOf(range), "--to", "d3", "--rate",
                    "0", "--wait");
            assertThat(moved.code()).as(moved.err()).isZero();
            assertThat(moved.out()).contains("to d3, copying").contains("has ended");
            assertThat(c.node(0).metadata().current().range(range).owner()).isEqualTo("d3");
            Run listed = run("migrations", "--seeds", seeds);
            assertThat(listed.out()).contains("0 migrations under way");
            Run bad = run("migrate", "--seeds", seeds, "--pause", "99");
            assertThat(bad.code()).isNotZero();
            assertThat(bad.err()).contains("no migration 99");
            Run noTarget = run("migrate", "--seeds", seeds, "--range", String.valueOf(range));
            assertThat(noTarget.code()).isNotZero();
            assertThat(noTarget.err()).contains("--to");
            assertThat(client.search(Keys.utf8("a7"))).contains(Keys.utf8("v7"));
        }
    }
}
