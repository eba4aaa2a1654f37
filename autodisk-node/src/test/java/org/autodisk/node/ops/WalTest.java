package org.autodisk.node.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.autodisk.core.cluster.ClusterStatus;
import org.autodisk.core.cluster.MetricNames;
import org.autodisk.core.cluster.RangeStatus;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.InsertRequest;
import org.autodisk.core.protocol.KeyRequest;
import org.autodisk.core.protocol.Opcode;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.InMemoryCluster;
import org.autodisk.node.store.LocalStore;
import org.autodisk.node.store.LocalStores;
import org.autodisk.node.wire.LogRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** Write-ahead-log shipping with in-memory nodes: d1, d2 and log nodes l1, l2 (nodes 2 and 3). */
class WalTest {

    /** These tests cover the per-node stream; {@code RangeLedgersTest} covers the ledgers. */
    private static Map<String, Object> stream(Map<String, Object> settings) {
        Map<String, Object> out = new java.util.HashMap<>(settings);
        out.put("wal.ledgers", false);
        return out;
    }

    private static final byte[] D2_KEY = {(byte) 0xC0, 1};

    private static Frame call(InMemoryCluster c, int node, Opcode op, byte[] body) {
        return c.call(node, Frame.request(op, 1, body)).join();
    }

    private static Frame insert(InMemoryCluster c, int node, byte[] key, byte[] value) {
        return call(c, node, Opcode.INSERT, new InsertRequest(key, value).encode());
    }

    @Test
    void insertIsLoggedOnTheOwnersLogNodeBeforeItIsApplied() throws Exception {
        try (InMemoryCluster c = new InMemoryCluster(2, 2, stream(Map.of()))) {
            assertThat(Responses.status(insert(c, 0, D2_KEY, new byte[] {7}).body())).isEqualTo(Status.OK);
            assertThat(c.node(1).wal().logNodes()).containsExactly("l2");
            assertThat(c.node(3).logStore().read("d2", 1, 10, 1 << 20)).singleElement()
                    .satisfies(r -> assertThat(r.key()).isEqualTo(D2_KEY));
            assertThat(c.node(2).logStore().lastLsn("d2")).isZero();
            assertThat(c.node(1).store().appliedLsn()).isEqualTo(1);
            Frame del = call(c, 0, Opcode.DELETE, new KeyRequest(D2_KEY).encode());
            assertThat(Responses.parseDelete(del.body())).isTrue();
            assertThat(c.node(3).logStore().read("d2", 2, 10, 1 << 20).get(0).op()).isEqualTo(LogRecord.DELETE);
        }
    }

    @Test
    void withMultiplicityOneAndTheLogNodeDownNothingIsAppliedOrAcknowledged() throws Exception {
        try (InMemoryCluster c = new InMemoryCluster(2, 2, stream(Map.of()))) {
            c.peers(1).setUnreachable("l2", true);
            Frame r = insert(c, 0, D2_KEY, new byte[] {7});
            assertThat(Responses.status(r.body())).isEqualTo(Status.NODE_UNAVAILABLE);
            assertThat(Responses.errorMessage(r.body())).contains("l2");
            assertThat(c.node(1).store().get(D2_KEY)).isNull();
            c.peers(1).setUnreachable("l2", false);
            assertThat(Responses.status(insert(c, 0, D2_KEY, new byte[] {8}).body())).isEqualTo(Status.OK);
            assertThat(c.node(1).store().get(D2_KEY)).containsExactly(8);
        }
    }

    @Test
    void withMultiplicityTwoOneLogNodeDownMeansDegradedNotStopped() throws Exception {
        Map<String, Object> noCatchUp = Map.of("wal.multiplicity", 2, "wal.catch-up-threshold", 1_000_000,
                "wal.catch-up-idle-ms", 3_600_000);
        try (InMemoryCluster c = new InMemoryCluster(2, 2, stream(noCatchUp))) {
            assertThat(Responses.status(insert(c, 1, D2_KEY, new byte[] {1}).body())).isEqualTo(Status.OK);
            assertThat(c.node(1).wal().degraded()).isFalse();
            c.peers(1).setUnreachable("l1", true);
            assertThat(Responses.status(insert(c, 1, D2_KEY, new byte[] {2}).body())).isEqualTo(Status.OK);
            assertThat(Responses.status(insert(c, 1, D2_KEY, new byte[] {3}).body())).isEqualTo(Status.OK);
            assertThat(c.node(1).wal().degraded()).isTrue();
            assertThat(c.node(1).metrics().snapshot()).containsEntry(MetricNames.WAL_DEGRADED, 1.0);
            assertThat(c.node(3).logStore().lastLsn("d2")).isEqualTo(3);
            assertThat(c.node(2).logStore().lastLsn("d2")).isEqualTo(1);

            c.peers(1).setUnreachable("l1", false);
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
                insert(c, 1, D2_KEY, new byte[] {4});
                return !c.node(1).wal().degraded();
            });
            long last = c.node(1).metrics().snapshot().get(MetricNames.WAL_LAST_LSN).longValue();
            insert(c, 1, D2_KEY, new byte[] {5});
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() ->
                    c.node(2).logStore().lastLsn("d2") == last + 1 && c.node(3).logStore().lastLsn("d2") == last + 1);
            assertThat(c.node(2).logStore().read("d2", 1, 10_000, 1L << 30)).extracting(LogRecord::lsn)
                    .as("l1 got the records it missed while down").isEqualTo(java.util.stream.LongStream
                            .rangeClosed(1, last + 1).boxed().toList());
        }
    }

    @Test
    void aRestartedDataNodeReplaysItsLogBeforeServing() throws Exception {
        try (InMemoryCluster c = new InMemoryCluster(2, 1, stream(Map.of()))) {
            for (int i = 0; i < 50; i++) {
                insert(c, 0, new byte[] {(byte) 0xC0, (byte) i}, new byte[] {(byte) i});
            }
            call(c, 0, Opcode.DELETE, new KeyRequest(new byte[] {(byte) 0xC0, 7}).encode());
            c.node(1).close();
            c.start(1, LocalStores.inMemory());
            assertThat(c.node(1).store().count()).isEqualTo(49);
            assertThat(c.node(1).store().appliedLsn()).isEqualTo(51);
            assertThat(Responses.status(insert(c, 0, D2_KEY, new byte[] {9}).body())).isEqualTo(Status.OK);
            assertThat(c.node(2).logStore().lastLsn("d2")).isEqualTo(52);
        }
    }

    @Test
    void theLogNodeCatchesTheBackupUpAndStatusShowsTheLag() throws Exception {
        try (InMemoryCluster c = new InMemoryCluster(2, 1, stream(Map.of("wal.catch-up-threshold", 50)))) {
            for (int i = 0; i < 120; i++) {
                insert(c, 0, new byte[] {(byte) 0xC0, (byte) i}, new byte[] {(byte) i});
            }
            call(c, 0, Opcode.DELETE, new KeyRequest(new byte[] {(byte) 0xC0, 3}).encode());
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> rangeOf(c, 1).backupLag() == 0);
            RangeStatus r = rangeOf(c, 1);
            assertThat(r.owner()).isEqualTo("d2");
            assertThat(r.backup()).isEqualTo("d1");
            assertThat(r.logNodes()).containsExactly("l1");
            LocalStore copy = c.node(0).backups().of("d2");
            assertThat(copy.scan(new byte[0], null, 1000, Long.MAX_VALUE).entries())
                    .usingRecursiveFieldByFieldElementComparator()
                    .isEqualTo(c.node(1).store().scan(new byte[0], null, 1000, Long.MAX_VALUE).entries());
            assertThat(copy.count()).isEqualTo(119);
            assertThat(copy.appliedLsn()).isEqualTo(121);
        }
    }

    @Test
    void aBackupThatLostItsUnflushedPartInACrashIsResentWhatItLost() throws Exception {
        try (InMemoryCluster c = new InMemoryCluster(2, 1, stream(Map.of("wal.catch-up-threshold", 50)))) {
            c.node(1).close();
            c.start(1, new UnflushedStore());
            for (int i = 0; i < 120; i++) {
                insert(c, 0, new byte[] {(byte) 0xC0, (byte) i}, new byte[] {(byte) i});
            }
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> rangeOf(c, 1).backupLag() == 0);
            c.node(0).backups().loseUnflushed("d2");
            for (int i = 120; i < 200; i++) {
                insert(c, 0, new byte[] {(byte) 0xC0, (byte) i}, new byte[] {(byte) i});
            }
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> rangeOf(c, 1).backupLag() == 0
                    && c.node(0).backups().of("d2").appliedLsn() == 200);
            LocalStore copy = c.node(0).backups().of("d2");
            assertThat(copy.count()).isEqualTo(200);
            assertThat(copy.scan(new byte[0], null, 1000, Long.MAX_VALUE).entries())
                    .usingRecursiveFieldByFieldElementComparator()
                    .isEqualTo(c.node(1).store().scan(new byte[0], null, 1000, Long.MAX_VALUE).entries());
        }
    }

    @Test
    void bothLogNodesTruncateWhatOwnerAndBackupHaveApplied() throws Exception {
        try (InMemoryCluster c = new InMemoryCluster(2, 2, stream(Map.of("wal.multiplicity", 2,
                "wal.catch-up-threshold", 50)))) {
            assertThat(c.node(1).wal().logNodes()).containsExactly("l2", "l1");
            for (int i = 0; i < 120; i++) {
                insert(c, 0, new byte[] {(byte) 0xC0, (byte) i}, new byte[] {(byte) i});
            }
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> rangeOf(c, 1).backupLag() == 0);
            insert(c, 0, D2_KEY, new byte[] {1});
            for (int logNode : new int[] {3, 2}) {
                Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                        assertThat(c.node(logNode).logStore().read("d2", 1, 1, 1 << 20)).singleElement()
                                .satisfies(r -> assertThat(r.lsn()).as("first LSN kept").isGreaterThan(100)));
            }
        }
    }

    @Test
    void whileTheFirstLogNodeIsDownTheSecondCatchesTheBackupUp() throws Exception {
        try (InMemoryCluster c = new InMemoryCluster(2, 2, stream(Map.of("wal.multiplicity", 2,
                "wal.catch-up-threshold", 50)))) {
            assertThat(c.node(1).wal().logNodes()).containsExactly("l2", "l1");
            c.peers(1).setUnreachable("l2", true);
            c.peers(2).setUnreachable("l2", true);
            for (int i = 0; i < 120; i++) {
                assertThat(Responses.status(insert(c, 0, new byte[] {(byte) 0xC0, (byte) i},
                        new byte[] {(byte) i}).body())).isEqualTo(Status.OK);
            }
            assertThat(c.node(1).wal().degraded()).isTrue();
            assertThat(c.node(3).logStore().lastLsn("d2")).isZero();
            LocalStore copy = c.node(0).backups().of("d2");
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> copy.appliedLsn() == 120);
            assertThat(copy.scan(new byte[0], null, 1000, Long.MAX_VALUE).entries())
                    .usingRecursiveFieldByFieldElementComparator()
                    .isEqualTo(c.node(1).store().scan(new byte[0], null, 1000, Long.MAX_VALUE).entries());
            assertThat(copy.count()).isEqualTo(120);
            c.peers(1).setUnreachable("l2", false);
            c.peers(2).setUnreachable("l2", false);
            for (int i = 120; i < 130; i++) {
                insert(c, 0, new byte[] {(byte) 0xC0, (byte) i}, new byte[] {(byte) i});
            }
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> !c.node(1).wal().degraded()
                    && copy.appliedLsn() == 130 && c.node(3).logStore().lastLsn("d2") == 130);
            List<Long> held = c.node(3).logStore().read("d2", 1, 10_000, 1L << 30).stream().map(LogRecord::lsn)
                    .toList();
            assertThat(held).as("l2 holds, without a gap, what l1 had not truncated (owner and backup applied)")
                    .isEqualTo(LongStream.rangeClosed(held.get(0), 130).boxed().toList());
        }
    }

    private static RangeStatus rangeOf(InMemoryCluster c, int range) {
        Frame r = call(c, 0, Opcode.STATUS, new byte[0]);
        return ClusterStatus.fromJson(Responses.parseBytes(r.body())).ranges().get(range);
    }
}
