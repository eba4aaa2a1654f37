package org.autodisk.node.data;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.autodisk.core.Keys;
import org.autodisk.core.protocol.KeyValue;
import org.autodisk.node.backup.BackupStores;
import org.autodisk.node.meta.InMemoryMetadataGroup;
import org.autodisk.node.meta.Member;
import org.autodisk.node.meta.MemberState;
import org.autodisk.node.meta.MetaBootstrap;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.Metadata;
import org.autodisk.node.meta.MigrationPhase;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.store.ForwardingStore;
import org.autodisk.node.store.LocalStore;
import org.autodisk.node.store.LocalStores;
import org.junit.jupiter.api.Test;

/**
 * The sweep of stray spans on d2 (an in-memory metadata group; d2's store and backup copy in memory). Ranges: 0
 * {@code [, h)} owned by d1 and backed up by d2, 1 {@code [h, p)} owned by d2 and backed up by d3, 2 {@code [p, )}
 * owned by d3 and backed up by d1. Each test puts streams in every span of d2's store and copy ({@code a}, {@code j},
 * {@code r}), changes the metadata, sweeps, and looks at what is left.
 */
class StraySpansTest {

    private static final Duration WAIT = Duration.ofSeconds(1);

    private final InMemoryMetadataGroup group = new InMemoryMetadataGroup();
    private final Metadata d1 = group.member("d1");
    private final Metadata d2 = group.member("d2");
    private final BackupStores copies = new BackupStores(null, false);
    private LocalStore store = LocalStores.inMemory();
    private boolean writer;

    private StraySpans sweeper;

    /** Two sweeps of one sweeper (a span goes once two sweeps in a row found it stray); the second's result. */
    private long sweep() {
        if (sweeper == null) {
            sweeper = newSweeper();
        }
        sweeper.sweep();
        return sweeper.sweep();
    }

    private StraySpans newSweeper() {
        // a writer of range 2 on d2 when the test says so: a slot of an owner d2 was, still replaying
        return new StraySpans("d2", d2, store, copies, r -> writer && r.id() == 2, Duration.ofMillis(300));
    }

    private void created() {
        List<Member> members = List.of(new Member("d1", "data", "h1:1", MemberState.UP),
                new Member("d2", "data", "h2:1", MemberState.UP), new Member("d3", "data", "h3:1", MemberState.UP),
                new Member("l1", "log", "h4:1", MemberState.UP));
        d1.submit(MetaBootstrap.command("range", members, List.of("d1", "d2", "d3"), List.of(Keys.utf8("h"),
                Keys.utf8("p")), id -> List.of("l1")), WAIT).join();
        assertThat(d1.current().ranges()).extracting(RangeDescriptor::owner).containsExactly("d1", "d2", "d3");
        assertThat(d1.current().ranges()).extracting(r -> r.backups().get(0)).containsExactly("d2", "d3", "d1");
        for (LocalStore s : List.of(store, copies.copy())) {
            s.ingest(List.of(kv("a"), kv("j"), kv("r")), Map.of());
        }
    }

    private static KeyValue kv(String key) {
        return new KeyValue(Keys.utf8(key), Keys.utf8("v"));
    }

    private static List<String> keys(LocalStore s) {
        return s.scan(new byte[0], null, 100, Long.MAX_VALUE).entries().stream().map(e -> Keys.render(e.key()))
                .toList();
    }

    private long start(int rangeId, String target, boolean backup, String replaces) {
        RangeDescriptor r = d1.current().range(rangeId);
        return d1.submit(new MetaCommand.StartMigration(rangeId, r.epoch(), r.generation(), target, 0, "admin",
                backup, replaces), WAIT).join().migrationId();
    }

    @Test
    void theSpansOfRangesPlacedElsewhereGoAndItsOwnStay() {
        created();
        StraySpans one = newSweeper();
        assertThat(one.sweep()).as("a first sighting deletes nothing").isZero();
        assertThat(keys(store)).containsExactly("a", "j", "r");
        assertThat(one.sweep()).isEqualTo(3);
        assertThat(keys(store)).as("d2 owns range 1 only").containsExactly("j");
        assertThat(keys(copies.copy())).as("d2 backs up range 0 and owns range 1").containsExactly("a", "j");
    }

    @Test
    void aSweepWithNothingToDropCommitsNoBarrier() {
        created();
        assertThat(sweep()).isEqualTo(3);
        int barriers = group.proposals(MetaCommand.EndMigration.class);
        assertThat(barriers).as("the second sweep's, before it dropped").isEqualTo(1);
        assertThat(sweep()).isZero();
        assertThat(group.proposals(MetaCommand.EndMigration.class)).isEqualTo(barriers);
    }

    @Test
    void aBackupMovedOffThisNodeWhoseDropACrashCutShortIsDropped() {
        created();
        long id = start(0, "d3", true, "d2");
        d1.submit(new MetaCommand.MigrationProgress(id, MigrationPhase.COPYING, MigrationPhase.CATCHING_UP, 1, 1, "61",
                0), WAIT).join();
        assertThat(d1.submit(new MetaCommand.AddBackup(id), WAIT).join().applied()).isTrue();
        sweep();
        assertThat(keys(copies.copy())).as("d3 backs up range 0 in d2's place").containsExactly("j");
    }

    @Test
    void movesAndFillsThisNodeTakesPartInKeepTheirSpans() {
        created();
        long moved = start(1, "d1", false, null); // d2 is the source: its clean-up deletes the span
        d1.submit(new MetaCommand.MigrationProgress(moved, MigrationPhase.COPYING, MigrationPhase.CATCHING_UP, 1, 1,
                "6a", 0), WAIT).join();
        assertThat(d1.submit(new MetaCommand.CutOver(moved, List.of("d3"), List.of("l1")), WAIT).join().applied())
                .isTrue();
        assertThat(d2.current().range(1).owner()).isEqualTo("d1");
        start(2, "d2", false, null); // d2 is the target: the copy writes the span
        sweep();
        assertThat(keys(store)).as("a source keeps every span (a split after the cutover is named by no migration)")
                .containsExactly("a", "j", "r");
        assertThat(keys(copies.copy())).as("the copy keeps range 0 (backed up) only").containsExactly("a");
        assertThat(d1.submit(new MetaCommand.EndMigration(moved, false, "cleaned up"), WAIT).join().applied())
                .isTrue();
        sweep();
        assertThat(keys(store)).as("d2 copies range 2 as its target").containsExactly("r");
    }

    @Test
    void aFillIntoThisNodeKeepsTheCopysSpan() {
        created();
        start(2, "d2", true, "d1");
        sweep();
        assertThat(keys(copies.copy())).containsExactly("a", "j", "r");
        assertThat(keys(store)).as("a fill writes the backup copy, not the store").containsExactly("j");
    }

    @Test
    void aWriterOfTheRangeOnThisNodeKeepsTheStoresSpan() {
        created();
        writer = true; // a slot of an owner d2 was, still replaying into the span
        sweep();
        assertThat(keys(store)).containsExactly("j", "r");
        assertThat(keys(copies.copy())).containsExactly("a", "j");
    }

    @Test
    void aViewBehindTheLeadersDoesNotSweep() {
        created();
        StraySpans one = newSweeper();
        one.sweep();
        group.holdUpdates("d2", true); // as while d2 replays its metadata log after a restart
        start(2, "d2", true, "d1");
        assertThat(d2.current().migrationOf(2)).as("d2 has not seen the fill into it").isNull();
        assertThat(one.sweep()).isEqualTo(-1);
        assertThat(keys(copies.copy())).containsExactly("a", "j", "r");
        group.holdUpdates("d2", false);
        sweep();
        assertThat(keys(copies.copy())).as("the fill keeps the span").containsExactly("a", "j", "r");
    }

    @Test
    void aNodeNotUpDoesNotSweep() {
        created();
        StraySpans one = newSweeper();
        one.sweep();
        d1.submit(new MetaCommand.SetMemberState("d2", MemberState.UP, MemberState.FAILED), WAIT).join();
        assertThat(one.sweep()).isEqualTo(-1);
        assertThat(keys(store)).containsExactly("a", "j", "r");
    }

    @Test
    void aChangeBetweenTheListingAndTheDeletionKeepsTheSpan() {
        created();
        LocalStore plain = store;
        store = new ForwardingStore(plain) { // the move of range 2 to d2 commits just before the store's lock
            @Override
            public long deleteRangeIf(byte[] low, byte[] high, BooleanSupplier condition) {
                if (d2.current().migrationOf(2) == null && Keys.render(low).equals("p")) {
                    start(2, "d2", false, null);
                }
                return super.deleteRangeIf(low, high, condition);
            }
        };
        sweep();
        assertThat(keys(store)).containsExactly("j", "r");
    }
}
