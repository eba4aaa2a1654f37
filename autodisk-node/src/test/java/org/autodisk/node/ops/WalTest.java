package org.autodisk.node.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.autodisk.core.cluster.ClusterStatus;
import org.autodisk.core.cluster.RangeStatus;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.InsertRequest;
import org.autodisk.core.protocol.KeyRequest;
import org.autodisk.core.protocol.Opcode;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.InMemoryCluster;
import org.autodisk.node.meta.LedgerInfo;
import org.autodisk.node.meta.LedgerState;
import org.autodisk.node.store.LocalStore;
import org.autodisk.node.wire.LogRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The write-ahead log with in-memory nodes and channels: d1, d2 and log nodes l1, l2 (nodes 2 and 3). Each range is
 * logged as ledgers on its owner's log nodes; {@code RangeLedgersTest} covers recovery, splits and halts over TCP.
 */
class WalTest {

    private static final byte[] D2_KEY = {(byte) 0xC0, 1};

    /** Every request is answered: one that is not fails the test (after a minute) instead of hanging it. */
    private static Frame call(InMemoryCluster c, int node, Opcode op, byte[] body) {
        return c.call(node, Frame.request(op, 1, body)).orTimeout(1, TimeUnit.MINUTES).join();
    }

    private static Frame insert(InMemoryCluster c, int node, byte[] key, byte[] value) {
        return call(c, node, Opcode.INSERT, new InsertRequest(key, value).encode());
    }

    private static LedgerInfo openLedgerOf(InMemoryCluster c, String writer) {
        return c.node(0).metadata().current().ledgers().stream().filter(l -> l.writer().equals(writer)
                && l.state() == LedgerState.OPEN).findFirst().orElseThrow();
    }

    @Test
    void aWriteIsInTheRangesLedgerOnItsLogNodeBeforeItIsApplied() throws Exception {
        try (InMemoryCluster c = new InMemoryCluster(2, 2, Map.of())) {
            assertThat(Responses.status(insert(c, 0, D2_KEY, new byte[] {7}).body())).isEqualTo(Status.OK);
            assertThat(c.node(1).wal().logNodes()).containsExactly("l2");
            LedgerInfo ledger = openLedgerOf(c, "d2");
            assertThat(ledger.lastFragment().ensemble()).containsExactly("l2");
            assertThat(c.node(3).log().ledgers().read(ledger.id(), 1, 10)).singleElement()
                    .satisfies(e -> assertThat(e.key()).isEqualTo(D2_KEY));
            assertThat(c.node(2).log().ledgers().store().lastEntry(ledger.id())).isZero();
            assertThat(c.node(1).store().appliedEntry(ledger.id())).isEqualTo(1);
            Frame del = call(c, 0, Opcode.DELETE, new KeyRequest(D2_KEY).encode());
            assertThat(Responses.parseDelete(del.body())).isTrue();
            assertThat(c.node(3).log().ledgers().read(ledger.id(), 2, 10).get(0).op()).isEqualTo(LogRecord.DELETE);
        }
    }

    @Test
    void withNoLogNodeReachableNothingIsAppliedOrAcknowledgedAndTheRangeServesOnceOneIsBack() throws Exception {
        try (InMemoryCluster c = new InMemoryCluster(2, 2, Map.of("forward.timeout-ms", 1000,
                "wal.answer-timeout-ms", 300))) {
            c.peers(1).setUnreachable("l1", true);
            c.peers(1).setUnreachable("l2", true);
            long before = c.node(1).metadata().current().version();
            Frame r = insert(c, 0, D2_KEY, new byte[] {7});
            assertThat(Responses.status(r.body())).isIn(Status.NODE_UNAVAILABLE, Status.OUTCOME_UNKNOWN);
            assertThat(c.node(1).metadata().current().version() - before)
                    .as("the writer gives up once every log node failed: it does not swap them back and forth, "
                            + "committing an ensemble change each time").isLessThan(100);
            assertThat(c.node(1).store().get(D2_KEY)).isNull();
            c.peers(1).setUnreachable("l1", false);
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> Responses.status(insert(c, 0, D2_KEY,
                    new byte[] {8}).body()) == Status.OK);
            assertThat(c.node(1).store().get(D2_KEY)).containsExactly(8);
            assertThat(openLedgerOf(c, "d2").lastFragment().ensemble()).as("the spare stands in").containsExactly("l1");
        }
    }

    @Test
    void theLogNodeCatchesTheBackupUpFromTheLedgerAndStatusShowsTheLag() throws Exception {
        try (InMemoryCluster c = new InMemoryCluster(2, 1, Map.of("wal.catch-up-threshold", 50))) {
            for (int i = 0; i < 120; i++) {
                insert(c, 0, new byte[] {(byte) 0xC0, (byte) i}, new byte[] {(byte) i});
            }
            call(c, 0, Opcode.DELETE, new KeyRequest(new byte[] {(byte) 0xC0, 3}).encode());
            long ledger = openLedgerOf(c, "d2").id();
            LocalStore copy = c.node(0).backups().copy();
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> copy.appliedEntry(ledger) == 121
                    && rangeOf(c, 1).backupLag() == 0);
            RangeStatus r = rangeOf(c, 1);
            assertThat(r.owner()).isEqualTo("d2");
            assertThat(r.backup()).isEqualTo("d1");
            assertThat(r.logNodes()).containsExactly("l1");
            assertThat(copy.scan(new byte[0], null, 1000, Long.MAX_VALUE).entries())
                    .usingRecursiveFieldByFieldElementComparator()
                    .isEqualTo(c.node(1).store().scan(new byte[0], null, 1000, Long.MAX_VALUE).entries());
            assertThat(copy.count()).isEqualTo(119);
        }
    }

    @Test
    void whenTheLedgersFirstLogNodeCannotReachTheBackupTheOtherCopiesItInItsPlace() throws Exception {
        try (InMemoryCluster c = new InMemoryCluster(2, 2, Map.of("wal.multiplicity", 2))) {
            c.peers(3).setUnreachable("d1", true);
            for (int i = 0; i < 50; i++) {
                insert(c, 0, new byte[] {(byte) 0xC0, (byte) i}, new byte[] {(byte) i});
            }
            LedgerInfo ledger = openLedgerOf(c, "d2");
            assertThat(ledger.lastFragment().ensemble()).as("l2 copies d2's ledgers").containsExactly("l2", "l1");
            LocalStore copy = c.node(0).backups().copy();
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> copy.appliedEntry(ledger.id()) == 50);
            assertThat(copy.count()).isEqualTo(50);
        }
    }

    private static RangeStatus rangeOf(InMemoryCluster c, int range) {
        Frame r = call(c, 0, Opcode.STATUS, new byte[0]);
        return ClusterStatus.fromJson(Responses.parseBytes(r.body())).ranges().get(range);
    }
}
