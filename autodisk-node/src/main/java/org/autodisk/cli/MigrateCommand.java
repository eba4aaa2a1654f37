package org.autodisk.cli;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import org.autodisk.client.AutoDiskAdmin;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.core.Keys;
import org.autodisk.core.cluster.MigrationStatus;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code autodisk migrate}: moves a range to another data node (the nodes copy, catch up and cut over among
 * themselves), or pauses, resumes, re-throttles or aborts a migration.
 */
@Command(name = "migrate", footer = {"  autodisk migrate --range 0 --to d2 --rate 20 --wait",
    "  autodisk migrate --key user42 --split-at user40 --to d3", "  autodisk migrate --range 3 --to d1 --backup",
    "  autodisk migrate --pause 7"},
        description = "Move a range (or its part from a split key on) to another data node, fill a backup (a missing "
                + "one, or the range's backup moved to another node), or steer a migration.")
final class MigrateCommand implements Callable<Integer> {

    @Mixin
    SeedsOption seeds;

    @ArgGroup(exclusive = true, multiplicity = "1")
    What what;

    static final class What {
        @Option(names = "--range", description = "The id of the range to move.")
        Integer range;
        @Option(names = "--key", description = "Move the range holding this key: text, or 0x<hex>.")
        String key;
        @Option(names = "--pause", paramLabel = "ID", description = "Pause a migration.")
        Long pause;
        @Option(names = "--resume", paramLabel = "ID", description = "Resume a paused migration.")
        Long resume;
        @Option(names = "--abort", paramLabel = "ID", description = "Abort a migration before its cutover.")
        Long abort;
        @Option(names = "--throttle", paramLabel = "ID", description = "Change a migration's --rate.")
        Long throttle;
    }

    @Option(names = "--to", description = "The data node the range moves to.")
    String to;

    @Option(names = "--split-at", description = "Split the range at this key first and move the part from it on.")
    String splitAt;

    @Option(names = "--rate", description = "Throttle in MB/s (0: unthrottled; default: the target's "
            + "migration.rate-bytes).")
    Double rateMb;

    @Option(names = "--backup", description = "Do not move the range: fill a backup of it on --to; a range that has "
            + "a backup has it moved there (the old one backs the range up until the new copy caught up).")
    boolean backup;

    @Option(names = "--wait", description = "Wait until the migration has finished, showing its progress.")
    boolean await;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Override
    public Integer call() throws InterruptedException {
        try (AutoDiskClient client = seeds.connect()) {
            AutoDiskAdmin admin = client.admin();
            MigrationStatus s = act(admin);
            System.out.println(json ? new String(s.toJson(), StandardCharsets.UTF_8) : describe(s));
            return await && s.rangeId() >= 0 ? MigrationProgress.follow(admin, s, System.out) : 0;
        }
    }

    private MigrationStatus act(AutoDiskAdmin admin) {
        if (what.pause != null) {
            return admin.pauseMigration(what.pause);
        } else if (what.resume != null) {
            return admin.resumeMigration(what.resume);
        } else if (what.abort != null) {
            return admin.abortMigration(what.abort);
        } else if (what.throttle != null) {
            return admin.throttleMigration(what.throttle, rate(true));
        }
        if (to == null) {
            throw new IllegalArgumentException("--to NODE is needed: the data node the range moves to");
        }
        Long rate = rateMb == null ? null : rate(false);
        if (what.range != null) {
            if (splitAt != null) {
                throw new IllegalArgumentException("--split-at goes with --key, not --range");
            }
            return backup ? admin.fillBackup(what.range, to, rate) : admin.migrate(what.range, to, rate);
        }
        if (backup) {
            throw new IllegalArgumentException("--backup goes with --range: a backup fill copies a whole range");
        }
        return admin.migrate(Keys.parse(what.key), to, splitAt == null ? null : Keys.parse(splitAt), rate);
    }

    private long rate(boolean required) {
        if (rateMb == null && required) {
            throw new IllegalArgumentException("--throttle ID needs --rate MB/s");
        }
        if (rateMb < 0) {
            throw new IllegalArgumentException("--rate must not be negative, was " + rateMb);
        }
        return Math.round(rateMb * 1e6);
    }

    private static String describe(MigrationStatus s) {
        if (s.rangeId() < 0) {
            return "migration " + s.id() + " " + s.phase();
        }
        return (s.backup() ? "backup fill " : "migration ") + s.id() + ": range " + s.rangeId() + " " + s.span()
                + " from " + s.source() + " to " + s.target() + ", " + s.phase() + (s.paused() ? " (paused)" : "")
                + ", throttle " + MigrationTables.rate(s.rateBytes()) + ", " + s.keysCopied() + " keys copied";
    }
}
