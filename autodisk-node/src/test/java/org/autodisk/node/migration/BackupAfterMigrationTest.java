package org.autodisk.node.migration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.core.Keys;
import org.autodisk.core.cluster.BalanceReport;
import org.autodisk.core.cluster.MigrationStatus;
import org.autodisk.core.protocol.KeyValue;
import org.autodisk.core.protocol.TraverseResult;
import org.autodisk.node.MiniCluster;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.store.LocalStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A range's backup after its range moves (in-process cluster, three data nodes, two log nodes): a backup that stays
 * holds the range whole and follows the new owner's writes and deletes; a range moved to its backup has none until
 * the shipped rule fills one on another node, which then holds exactly what the owner holds.
 */
class BackupAfterMigrationTest {

    private static final Map<String, Object> CONFIG = Map.of("wal.multiplicity", 2, "wal.answer-timeout-ms", 2000,
            "metadata.request-timeout-ms", 5000, "forward.timeout-ms", 20_000, "migration.chunk-bytes", 64 * 1024);

    /** Keys of d1's range (the first third of the key space with three data nodes); its backup is d2. */
    private static byte[] key(int i) {
        return new byte[] {0x10, (byte) (i >> 8), (byte) i};
    }

    private static byte[] value(int i, int version) {
        return Keys.utf8("value-" + i + "-" + version + "-" + "x".repeat(100));
    }

    @Test
    void aMovedRangeKeepsAWholeBackupAndARangeMovedToItsBackupGetsANewOneFilled(@TempDir Path dir) {
        // stores in RocksDB: log nodes drop what the stores hold durably, so only the fill's copy can give the new
        // backup the range's older streams (a store in memory holds nothing durably, and the log keeps everything)
        try (MiniCluster c = MiniCluster.start(3, 2, dir, CONFIG)) {
            AutoDiskClient client = c.clientOf(0);
            RangeDescriptor r = loadD1sRange(c, client);

            moveAndWait(client, r.id(), "d3");
            assertThat(range(c, r).backups()).as("the backup stays when the range moves elsewhere")
                    .containsExactly("d2");
            writeAgain(client, 1);
            awaitBackupEqualsOwner(c, r, 2, 1);

            moveAndWait(client, r.id(), "d2");
            assertThat(range(c, r).backups()).as("a range moved to its backup has none").isEmpty();
            assertThat(contents(c.node(1).backups().copy(), r)).as("the new owner dropped its backup copy").isEmpty();

            BalanceReport round = client.admin().balance(false);
            assertThat(round.proposals()).anySatisfy(p -> {
                assertThat(p.rangeId()).isEqualTo(r.id());
                assertThat(p.reason()).contains("fill a missing backup");
                assertThat(p.outcome()).isEqualTo("started a backup fill");
            });
            await().atMost(Duration.ofSeconds(60)).until(() -> !range(c, r).backups().isEmpty()
                    && client.admin().migrations().migrations().isEmpty());
            String filled = range(c, r).backups().get(0);
            assertThat(filled).isIn("d1", "d3");
            writeAgain(client, 2);
            awaitBackupEqualsOwner(c, r, 1, filled.equals("d1") ? 0 : 2);
        }
    }

    /**
     * A fill on a range that has a backup moves the backup (off a full disk, say): the old backup keeps backing the
     * range up until the new copy caught up, then the new one takes its place, follows the owner's writes, and the old
     * one drops its copy of the range.
     */
    @Test
    void aFillOnARangeWithABackupMovesTheBackupAndTheOldOneDropsItsCopy(@TempDir Path dir) {
        try (MiniCluster c = MiniCluster.start(3, 2, dir, CONFIG)) {
            AutoDiskClient client = c.clientOf(0);
            RangeDescriptor r = loadD1sRange(c, client);
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(contents(c.node(1).backups()
                    .copy(), r)).hasSize(1500));

            MigrationStatus fill = client.admin().fillBackup(r.id(), "d3", 0L);
            assertThat(fill.backup()).isTrue();
            assertThat(fill.replaces()).isEqualTo("d2");
            await().atMost(Duration.ofSeconds(60)).until(() -> client.admin().migrations().migrations().isEmpty());
            assertThat(range(c, r).backups()).as("d3 took d2's place").containsExactly("d3");
            assertThat(range(c, r).owner()).isEqualTo("d1");
            writeAgain(client, 1);
            awaitBackupEqualsOwner(c, r, 0, 2);
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(contents(c.node(1).backups()
                    .copy(), r)).as("the replaced backup dropped its copy").isEmpty());
            assertThatThrownBy(() -> client.admin().fillBackup(r.id(), "d3", 0L))
                    .hasMessageContaining("d3 backs up");
        }
    }

    /** Writes 1500 streams into d1's range, whose backup is d2. */
    private static RangeDescriptor loadD1sRange(MiniCluster c, AutoDiskClient client) {
        for (int i = 0; i < 1500; i++) {
            client.insert(key(i), value(i, 0));
        }
        RangeDescriptor r = c.node(0).metadata().current().rangeOf(key(0));
        assertThat(r.owner()).isEqualTo("d1");
        assertThat(r.backups()).containsExactly("d2");
        return r;
    }

    private static void moveAndWait(AutoDiskClient client, int rangeId, String target) {
        client.admin().migrate(rangeId, target, 0L);
        await().atMost(Duration.ofSeconds(60)).until(() -> client.admin().migrations().migrations().isEmpty());
    }

    /** Overwrites some keys, deletes some, adds some: the new owner's ledger carries all three. */
    private static void writeAgain(AutoDiskClient client, int version) {
        for (int i = 0; i < 1500; i += 3) {
            client.insert(key(i), value(i, version));
        }
        for (int i = 1; i < 1500; i += 7 + version) {
            client.delete(key(i));
        }
        for (int i = 1500 + version * 200; i < 1700 + version * 200; i++) {
            client.insert(key(i), value(i, version));
        }
    }

    private static RangeDescriptor range(MiniCluster c, RangeDescriptor r) {
        return c.node(0).metadata().current().range(r.id());
    }

    private static void awaitBackupEqualsOwner(MiniCluster c, RangeDescriptor r, int owner, int backup) {
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(contents(c.node(backup).backups()
                .copy(), r)).as("the backup copy of range %d on node %d", r.id(), backup + 1)
                .isEqualTo(contents(c.node(owner).store(), r)));
        assertThat(contents(c.node(owner).store(), r)).hasSizeGreaterThan(1500);
    }

    private static Map<String, String> contents(LocalStore store, RangeDescriptor r) {
        Map<String, String> out = new TreeMap<>();
        TraverseResult page = store.scan(r.low(), r.high(), Integer.MAX_VALUE, Long.MAX_VALUE);
        for (KeyValue kv : page.entries()) {
            out.put(HexFormat.of().formatHex(kv.key()), Keys.render(kv.value()));
        }
        return out;
    }
}
