package org.autodisk.node.migration;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.autodisk.core.Keys;
import org.autodisk.core.protocol.KeyValue;
import org.autodisk.node.backup.BackupStores;
import org.autodisk.node.meta.InMemoryMetadataGroup;
import org.autodisk.node.meta.Member;
import org.autodisk.node.meta.MemberState;
import org.autodisk.node.meta.MetaBootstrap;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.Metadata;
import org.autodisk.node.meta.MigrationInfo;
import org.autodisk.node.meta.MigrationPhase;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.store.LocalStore;
import org.junit.jupiter.api.Test;

/**
 * The replaced backup's drop of its copy (an in-memory metadata group, d2's copy in memory): it deletes the span once
 * the add-backup that replaced it is current; a view behind the leader's (a restarted node replaying its metadata log
 * is told of an old add-backup again) keeps the span if a later fill made the node the range's backup again.
 */
class ReplacedBackupsTest {

    private final InMemoryMetadataGroup group = new InMemoryMetadataGroup();
    private final Metadata d1 = group.member("d1");
    private final Metadata d2 = group.member("d2");
    private final BackupStores copies = new BackupStores(null, false);

    private ReplacedBackups dropper() {
        MigrationSettings settings = new MigrationSettings(0, 1 << 20, 1, 10, Duration.ofMillis(500),
                Duration.ofMillis(500), false);
        MigrationContext mc = new MigrationContext("d2", d2, null, null, null, copies, settings, null,
                new MigrationTimes());
        return new ReplacedBackups(mc, Runnable::run);
    }

    private RangeDescriptor created() {
        List<Member> members = List.of(new Member("d1", "data", "h1:1", MemberState.UP),
                new Member("d2", "data", "h2:1", MemberState.UP), new Member("d3", "data", "h3:1", MemberState.UP),
                new Member("l1", "log", "h4:1", MemberState.UP));
        d1.submit(MetaBootstrap.command("range", members, List.of("d1", "d2", "d3"), List.of(Keys.utf8("h"),
                Keys.utf8("p")), id -> List.of("l1")), Duration.ofSeconds(1)).join();
        RangeDescriptor r = d1.current().range(0);
        assertThat(r.backups()).containsExactly("d2");
        LocalStore copy = copies.copy();
        copy.ingest(List.of(new KeyValue(Keys.utf8("a"), Keys.utf8("1")), new KeyValue(Keys.utf8("b"),
                Keys.utf8("2"))), Map.of());
        return r;
    }

    /** Moves range 0's backup to a target, through d1: start, caught up, add; returns the migration as started. */
    private MigrationInfo moveBackup(String to) {
        RangeDescriptor r = d1.current().range(0);
        long id = d1.submit(new MetaCommand.StartMigration(0, r.epoch(), r.generation(), to, 0, "admin", true,
                r.backups().get(0)), Duration.ofSeconds(1)).join().migrationId();
        MigrationInfo m = d1.current().migration(id);
        d1.submit(new MetaCommand.MigrationProgress(id, MigrationPhase.COPYING, MigrationPhase.CATCHING_UP, 2, 2, "62",
                0), Duration.ofSeconds(1)).join();
        assertThat(d1.submit(new MetaCommand.AddBackup(id), Duration.ofSeconds(1)).join().applied()).isTrue();
        return m;
    }

    private List<KeyValue> held(RangeDescriptor r) {
        return copies.copy().scan(r.low(), r.high(), 100, Long.MAX_VALUE).entries();
    }

    @Test
    void theReplacedBackupDropsItsSpanOnceTheAddIsCurrent() {
        RangeDescriptor r = created();
        MigrationInfo m = moveBackup("d3");
        assertThat(d2.current().range(0).backups()).containsExactly("d3");
        dropper().drop(m, r);
        assertThat(held(r)).isEmpty();
    }

    @Test
    void aViewBehindTheLeaderKeepsTheSpanThatALaterFillGaveItBack() {
        RangeDescriptor r = created();
        MigrationInfo m = moveBackup("d3");
        group.holdUpdates("d2", true); // d2 sees d3 in its place, then nothing more: as while it replays its log
        moveBackup("d2");
        assertThat(d1.current().range(0).backups()).containsExactly("d2");
        assertThat(d2.current().range(0).backups()).as("d2's view is behind").containsExactly("d3");
        dropper().drop(m, r);
        assertThat(held(r)).as("its view did not reach the leader's within the wait").hasSize(2);
        group.holdUpdates("d2", false);
        dropper().drop(m, r);
        assertThat(held(r)).as("d2 backs the range up again").hasSize(2);
    }

    @Test
    void withoutALeaderTheSpanIsKept() {
        RangeDescriptor r = created();
        MigrationInfo m = moveBackup("d3");
        group.available(false);
        dropper().drop(m, r);
        assertThat(held(r)).hasSize(2);
    }
}
