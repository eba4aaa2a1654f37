package org.autodisk.node.rangelog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.client.OutcomeUnknownException;
import org.autodisk.core.Keys;
import org.autodisk.node.MiniCluster;
import org.autodisk.node.meta.LedgerInfo;
import org.autodisk.node.meta.LedgerState;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.Metadata;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.store.ForwardingStore;
import org.autodisk.node.store.LocalStores;
import org.autodisk.node.store.StoreException;
import org.autodisk.node.wire.LogRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Data nodes that log each range as ledgers: writes are acknowledged through the range's ledger on its
 * log nodes; a restarted owner whose store lost everything recovers its unclosed ledger and replays it before it
 * serves; a log node lost with m=2 changes the ensemble; a split closes the range's ledger and both halves open their
 * own; a store that fails to apply halts the range until it recovered, and the write comes back from the log.
 */
class RangeLedgersTest {

    private static final Map<String, Object> LEDGERS = Map.of("wal.multiplicity", 2,
            "wal.answer-timeout-ms", 1000, "metadata.request-timeout-ms", 3000);

    /** Keys of d1's range (the first third of the key space with three data nodes). */
    private static byte[] key(int i) {
        return new byte[] {0x10, (byte) (i >> 8), (byte) i};
    }

    private static byte[] value(int i) {
        return Keys.utf8("value-" + i);
    }

    @Test
    void anOwnerThatLostItsStoreRecoversItsLedgerAndReplaysItBeforeItServes() {
        try (MiniCluster c = MiniCluster.start(3, 2, null, LEDGERS)) {
            AutoDiskClient viaD2 = c.clientOf(1);
            for (int i = 0; i < 300; i++) {
                viaD2.insert(key(i), value(i));
            }
            assertThat(c.node(0).store().count()).isEqualTo(300);
            LedgerInfo first = openLedgerOf(c.node(0).metadata(), "d1");
            assertThat(first.lastFragment().ensemble()).hasSize(2);

            c.stopNode(0);
            c.startNode(0);

            for (int i = 0; i < 300; i++) {
                assertThat(viaD2.search(key(i))).as("key " + i).contains(value(i));
            }
            assertThat(c.node(0).store().count()).as("in memory: everything came back from the log").isEqualTo(300);
            LedgerInfo recovered = c.node(0).metadata().current().ledger(first.id());
            assertThat(recovered.state()).isEqualTo(LedgerState.CLOSED);
            assertThat(recovered.lastEntry()).isEqualTo(300);
            assertThat(openLedgerOf(c.node(0).metadata(), "d1").id()).isGreaterThan(first.id());
            viaD2.insert(key(300), value(300));
            assertThat(viaD2.search(key(300))).contains(value(300));
        }
    }

    @Test
    void aLostLogNodeChangesTheEnsembleAndNothingAcknowledgedIsLost() {
        try (MiniCluster c = MiniCluster.start(3, 2, null, LEDGERS)) {
            AutoDiskClient viaD1 = c.clientOf(0);
            for (int i = 0; i < 50; i++) {
                viaD1.insert(key(i), value(i));
            }
            c.stopNode(4);
            for (int i = 50; i < 100; i++) {
                viaD1.insert(key(i), value(i));
            }
            LedgerInfo ledger = openLedgerOf(c.node(0).metadata(), "d1");
            assertThat(ledger.lastFragment().ensemble()).containsExactly("l1");

            c.stopNode(0);
            c.startNode(0);
            AutoDiskClient again = c.clientOf(0);
            for (int i = 0; i < 100; i++) {
                assertThat(again.search(key(i))).as("key " + i).contains(value(i));
            }
        }
    }

    @Test
    void aSplitClosesTheRangesLedgerAndBothHalvesOpenTheirOwn() {
        try (MiniCluster c = MiniCluster.start(3, 2, null, LEDGERS)) {
            AutoDiskClient viaD1 = c.clientOf(0);
            for (int i = 0; i < 100; i++) {
                viaD1.insert(key(i), value(i));
            }
            Metadata meta = c.node(0).metadata();
            LedgerInfo before = openLedgerOf(meta, "d1");
            RangeDescriptor r = meta.current().range(before.rangeId());
            assertThat(meta.submit(new MetaCommand.Split(r.id(), r.generation(), key(50)), Duration.ofSeconds(5))
                    .join().applied()).isTrue();

            await().until(() -> meta.current().ledgersOf(r).stream().filter(l -> l.state() == LedgerState.OPEN)
                    .count() == 2 && meta.current().ledger(before.id()).state() == LedgerState.CLOSED);
            for (int i = 100; i < 200; i++) {
                viaD1.insert(key(i), value(i));
            }
            MetaState s = meta.current();
            assertThat(s.ledger(before.id()).lastEntry()).isEqualTo(100);
            List<LedgerInfo> open = s.ledgers().stream().filter(l -> l.writer().equals("d1")
                    && l.state() == LedgerState.OPEN).toList();
            assertThat(open).extracting(LedgerInfo::rangeId).containsExactlyInAnyOrder(r.id(),
                    s.rangeOf(key(50)).id());
            for (int i = 0; i < 200; i++) {
                assertThat(viaD1.search(key(i))).as("key " + i).contains(value(i));
            }
        }
    }

    @Test
    void writesWaitingForARangeThatSplitsGoToTheHalvesAndNoneFails() {
        Map<String, Object> config = new HashMap<>(LEDGERS);
        config.put("forward.timeout-ms", 30_000);
        try (MiniCluster c = MiniCluster.start(3, 2, null, config)) {
            AutoDiskClient viaD1 = c.clientOf(0);
            insert(viaD1, 0, 10);
            c.stopNode(3);
            c.stopNode(4);
            assertThatThrownBy(() -> c.impatientClientOf(0).insert(key(10), value(10))).as("no log node is up");
            await().until(() -> c.node(0).wal().describe().contains("not serving yet"));
            List<CompletableFuture<Void>> waiting = IntStream.range(20, 120)
                    .mapToObj(i -> viaD1.async().insert(key(i), value(i))).toList();
            Metadata meta = c.node(0).metadata();
            RangeDescriptor r = meta.current().rangeOf(key(0));
            assertThat(meta.submit(new MetaCommand.Split(r.id(), r.generation(), key(70)), Duration.ofSeconds(5))
                    .join().applied()).isTrue();
            c.startNode(3);
            c.startNode(4);
            assertThat(waiting).allSatisfy(f -> assertThat(f).succeedsWithin(Duration.ofSeconds(40)));
            for (int i = 20; i < 120; i++) {
                assertThat(viaD1.search(key(i))).as("key " + i).contains(value(i));
            }
        }
    }

    @Test
    void aStoreThatFailsToApplyHaltsTheRangeAndTheWriteComesBackFromTheLog() {
        AtomicBoolean failing = new AtomicBoolean();
        try (MiniCluster c = MiniCluster.start(3, 2, null, LEDGERS)) {
            c.stopNode(0);
            c.startNode(0, Map.of(), b -> b.store(new ForwardingStore(LocalStores.inMemory()) {
                @Override
                public boolean[] applyLedger(long ledgerId, List<LogRecord> entries) {
                    if (failing.get()) {
                        throw new StoreException("injected apply failure", null);
                    }
                    return super.applyLedger(ledgerId, entries);
                }
            }));
            AutoDiskClient viaD2 = c.clientOf(1);
            await().ignoreExceptions().untilAsserted(() -> viaD2.insert(key(1), value(1)));
            failing.set(true);
            assertThatThrownBy(() -> viaD2.insert(key(2), value(2))).isInstanceOf(OutcomeUnknownException.class)
                    .hasMessageContaining("injected apply failure");
            assertThat(c.node(0).store().get(key(2))).isNull();
            failing.set(false);
            await().untilAsserted(() -> assertThat(viaD2.search(key(2))).as("replayed once the range recovered")
                    .contains(value(2)));
            assertThat(viaD2.search(key(1))).contains(value(1));
        }
    }

    @Test
    void theBackupIsCaughtUpFromTheLedgersAndResentWhatItLost() {
        try (MiniCluster c = MiniCluster.start(3, 2, null, LEDGERS)) {
            AutoDiskClient viaD2 = c.clientOf(1);
            insert(viaD2, 0, 200);
            await().untilAsserted(() -> assertThat(c.node(1).backups().copy().count()).isEqualTo(200));

            c.node(1).backups().loseUnflushed();
            insert(viaD2, 200, 300);
            await().untilAsserted(() -> assertThat(c.node(1).backups().copy().count())
                    .as("entries past what the copy holds are refused, and it is resent from its start")
                    .isEqualTo(300));

            Metadata meta = c.node(0).metadata();
            RangeDescriptor r = meta.current().rangeOf(key(0));
            assertThat(meta.submit(new MetaCommand.Split(r.id(), r.generation(), key(100)), Duration.ofSeconds(5))
                    .join().applied()).isTrue();
            insert(viaD2, 300, 400);
            await().untilAsserted(() -> assertThat(c.node(1).backups().copy().count())
                    .as("the closed ledger, then both halves' ledgers").isEqualTo(400));
            for (int i = 0; i < 400; i++) {
                assertThat(c.node(1).backups().copy().get(key(i))).as("key " + i).isEqualTo(value(i));
            }
        }
    }

    @Test
    void logNodesTruncateALedgerBelowWhatOwnerAndBackupHoldDurablyAndItIsDeletedOnceClosed(@TempDir Path dir) {
        Map<String, Object> journaled = new HashMap<>(LEDGERS);
        journaled.put("store.rocksdb-wal", true);
        try (MiniCluster c = MiniCluster.start(3, 2, dir, journaled)) {
            insert(c.clientOf(1), 0, 150);
            LedgerInfo ledger = openLedgerOf(c.node(0).metadata(), "d1");
            await().until(() -> c.node(1).backups().copy().count() == 150);
            await().untilAsserted(() -> {
                for (int logNode : List.of(3, 4)) {
                    assertThat(c.node(logNode).log().ledgers().read(ledger.id(), 150, 10)).as(c.id(logNode)
                            + " drops what d1 and its backup d2 hold durably, through the last entry").isEmpty();
                    assertThat(c.node(logNode).log().ledgers().store().lastEntry(ledger.id())).isEqualTo(150);
                }
            });
            c.stopNode(0);
            c.startNode(0);
            assertThat(c.clientOf(1).search(key(149))).as("the owner's store held it: nothing to replay")
                    .contains(value(149));
            Metadata meta = c.node(1).metadata();
            await().until(() -> meta.current().ledger(ledger.id()) == null);
            assertThat(meta.current().ledgers()).as("d1's closed ledger is deleted, its open one is kept")
                    .filteredOn(l -> l.writer().equals("d1")).singleElement()
                    .satisfies(l -> assertThat(l.state()).isEqualTo(LedgerState.OPEN));
            insert(c.clientOf(1), 150, 160);
            await().until(() -> c.node(1).backups().copy().count() == 160);
        }
    }

    private static void insert(AutoDiskClient client, int from, int to) {
        for (int i = from; i < to; i++) {
            client.insert(key(i), value(i));
        }
    }

    private static LedgerInfo openLedgerOf(Metadata meta, String writer) {
        return meta.current().ledgers().stream().filter(l -> l.writer().equals(writer)
                && l.state() == LedgerState.OPEN).findFirst().orElseThrow();
    }

}
