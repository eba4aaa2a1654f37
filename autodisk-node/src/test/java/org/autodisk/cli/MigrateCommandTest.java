package org.autodisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.core.Keys;
import org.autodisk.node.MiniCluster;
import org.autodisk.node.meta.RangeDescriptor;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code migrate}, {@code migrations} and {@code balance} against an in-process cluster: a move waited for, a list,
 * bad input, then the balance rules refilling the node the move emptied.
 */
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
            balanceRefillsTheEmptiedNode(c, seeds, c.node(0).metadata().current().range(range).owner());
            anAdministratorFillsAMissingBackupAndMovesIt(c, seeds);
        }
    }

    /**
     * d2 owned the range of "a..." and is empty now, and the range moved to its backup: the balance rules fill the
     * range a backup, then give d2 one of d3's two ranges.
     */
    private static void balanceRefillsTheEmptiedNode(MiniCluster c, String seeds, String nowOwner) {
        assertThat(nowOwner).isEqualTo("d3");
        Run dry = run("balance", "--seeds", seeds, "--dry-run");
        assertThat(dry.code()).as(dry.err()).isZero();
        assertThat(dry.out()).contains("(dry run)").contains("d2       up              0")
                .contains("-> d2: proposed").contains("because fill an empty data node: d2 holds no range");
        assertThat(c.node(0).metadata().current().migrations()).as("a dry run moves nothing").isEmpty();
        Run filled = run("balance", "--seeds", seeds);
        assertThat(filled.code()).as(filled.err()).isZero();
        assertThat(filled.out()).as("d3 was the range's backup: a backup first, then balance").contains(
                "started a backup fill").contains("because fill a missing backup").contains("one move per range and "
                + "source node per round");
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(60))
                .until(() -> c.node(0).metadata().current().migrations().isEmpty());
        assertThat(c.node(0).metadata().current().ranges()).allSatisfy(r -> assertThat(r.backups()).isNotEmpty());
        Run started = run("balance", "--seeds", seeds);
        assertThat(started.code()).as(started.err()).isZero();
        assertThat(started.out()).contains("d3 -> d2: started as migration");
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(60))
                .until(() -> c.node(0).metadata().current().migrations().isEmpty());
        assertThat(c.node(0).metadata().current().ranges()).extracting(r -> r.owner())
                .containsExactlyInAnyOrder("d1", "d2", "d3");
        Run after = run("balance", "--seeds", seeds, "--dry-run");
        assertThat(after.out()).contains("the rules propose no move");
    }

    /** A range moved to its backup has none; {@code migrate --backup} fills one, and refuses a second. */
    private static void anAdministratorFillsAMissingBackupAndMovesIt(MiniCluster c, String seeds) {
        RangeDescriptor r = c.node(0).metadata().current().ranges().get(0);
        String backup = r.backups().get(0);
        Run moved = run("migrate", "--seeds", seeds, "--range", String.valueOf(r.id()), "--to", backup, "--rate",
                "0", "--wait");
        assertThat(moved.code()).as(moved.err()).isZero();
        assertThat(c.node(0).metadata().current().range(r.id()).backups()).isEmpty();
        String third = java.util.stream.Stream.of("d1", "d2", "d3").filter(n -> !n.equals(r.owner())
                && !n.equals(backup)).findFirst().orElseThrow();
        Run filled = run("migrate", "--seeds", seeds, "--range", String.valueOf(r.id()), "--to", third, "--backup",
                "--rate", "0", "--wait");
        assertThat(filled.code()).as(filled.err()).isZero();
        assertThat(filled.out()).contains("backup fill").contains("to " + third).contains("has ended")
                .contains("'s backup");
        assertThat(c.node(0).metadata().current().range(r.id()).backups()).containsExactly(third);
        assertThat(c.node(0).metadata().current().range(r.id()).owner()).isEqualTo(backup);
        Run again = run("migrate", "--seeds", seeds, "--range", String.valueOf(r.id()), "--to", third, "--backup");
        assertThat(again.code()).isNotZero();
        assertThat(again.err()).contains(third + " backs up").contains("nothing changed");
        Run moveBackup = run("migrate", "--seeds", seeds, "--range", String.valueOf(r.id()), "--to", r.owner(),
                "--backup", "--rate", "0", "--wait");
        assertThat(moveBackup.code()).as(moveBackup.err()).isZero();
        assertThat(c.node(0).metadata().current().range(r.id()).backups()).as("the backup moved")
                .containsExactly(r.owner());
        Run byKey = run("migrate", "--seeds", seeds, "--key", "a1", "--to", "d1", "--backup");
        assertThat(byKey.code()).isNotZero();
        assertThat(byKey.err()).contains("--backup goes with --range");
        assertThat(c.node(0).metadata().current().migrations()).isEmpty();
    }
}
