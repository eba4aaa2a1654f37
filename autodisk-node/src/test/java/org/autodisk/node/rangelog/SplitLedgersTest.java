package org.autodisk.node.rangelog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.autodisk.core.cluster.SplitResult;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.InsertRequest;
import org.autodisk.core.protocol.KeyRequest;
import org.autodisk.core.protocol.Opcode;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.InMemoryCluster;
import org.autodisk.node.LoopWriter;
import org.autodisk.node.meta.CommandResult;
import org.autodisk.node.meta.LedgerInfo;
import org.autodisk.node.meta.LedgerState;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.store.LocalStores;
import org.junit.jupiter.api.Test;

/**
 * A split the range's owner asks for opens both halves' ledgers in the split's own metadata change, and the halves
 * serve once the range's writer is drained, not once its close commits: with every ledger close held back by the
 * metadata's fault hook, both halves serve under a writer and lose nothing; an owner that then crashes and loses its
 * store gets every write back, in order. A ledger a split opened for another process of the owner (one before a
 * restart) is recovered, never written.
 */
class SplitLedgersTest {

    private static final Map<String, Object> CONFIG = Map.of("wal.multiplicity", 2, "wal.answer-timeout-ms", 2000,
            "metadata.request-timeout-ms", 5000, "forward.timeout-ms", 20_000);

    /** Keys of d1's range (the first third of the key space with three data nodes). */
    private static byte[] key(int i) {
        return new byte[] {0x10, (byte) (i >> 8), (byte) i};
    }

    private static byte[] value(int i, int version) {
        return ("v" + i + "-" + version).getBytes(StandardCharsets.UTF_8);
    }

    private static Status insert(InMemoryCluster c, int node, int i, int version) throws Exception {
        return insert(c, node, key(i), value(i, version));
    }

    private static Status insert(InMemoryCluster c, int node, byte[] key, byte[] value) throws Exception {
        Frame f = c.call(node, Frame.request(Opcode.INSERT, 1, new InsertRequest(key, value).encode()))
                .get(30, TimeUnit.SECONDS);
        return Responses.status(f.body());
    }

    /** A key of a half that the writer never writes: just above key {@code i}. */
    private static byte[] probe(int i) {
        return new byte[] {0x10, 0, (byte) i, 1};
    }

    private static byte[] search(InMemoryCluster c, int node, int i) throws Exception {
        Frame f = c.call(node, Frame.request(Opcode.SEARCH, 1, new KeyRequest(key(i)).encode()))
                .get(30, TimeUnit.SECONDS);
        return Responses.status(f.body()) == Status.OK ? Responses.parseSearch(f.body()) : null;
    }

    /** Writes keys 0..99 at a version through d3; each must succeed. */
    private static void writeAll(InMemoryCluster c, int version) throws Exception {
        for (int i = 0; i < 100; i++) {
            assertThat(insert(c, 2, i, version)).as("key " + i).isEqualTo(Status.OK);
        }
    }

    /** Writes keys 0..99 at a version through d3, each read back through d2. */
    private static void writeAndReadAll(InMemoryCluster c, int version) throws Exception {
        for (int i = 0; i < 100; i++) {
            assertThat(insert(c, 2, i, version)).as("key " + i).isEqualTo(Status.OK);
            assertThat(search(c, 1, i)).as("key " + i).isEqualTo(value(i, version));
        }
    }

    private static LedgerInfo openLedger(MetaState s, RangeDescriptor r) {
        return s.ledgersOf(r).stream().filter(l -> l.state() == LedgerState.OPEN).findFirst().orElseThrow();
    }

    @Test
    void theHalvesServeTheLedgersTheOwnersSplitOpenedWhileTheRangesCloseIsHeldAndNothingIsLost() throws Exception {
        try (InMemoryCluster c = new InMemoryCluster(3, 2, CONFIG)) {
            writeAll(c, 0);
            LoopWriter writer = new LoopWriter(100, (i, n) -> insert(c, 2, i, n));
            Map<Integer, Integer> acked = writer.acked();
            List<String> failures = writer.failures();
            await().until(() -> acked.size() > 20);
            MetaState before = c.node(0).metadata().current();
            RangeDescriptor r = before.rangeOf(key(0));
            LedgerInfo parent = openLedger(before, r);
            c.metadata().holdProposals(cmd -> cmd instanceof MetaCommand.CloseLedger);
            MetaCommand.Split split = c.node(0).wal().splitCommand(r, key(50));
            assertThat(split.ensemble()).as("the owner names its log nodes").hasSize(2);
            CommandResult done = c.node(0).metadata().submit(split, Duration.ofSeconds(5)).join();
            assertThat(done.applied()).as(done.refusal()).isTrue();
            Map<Integer, Integer> atSplit = Map.copyOf(acked);
            await("both halves serve while the range's close is held").atMost(Duration.ofSeconds(30))
                    .until(() -> insert(c, 0, probe(20), value(20, -1)) == Status.OK
                            && insert(c, 0, probe(80), value(80, -1)) == Status.OK);
            await("keys written again after the split").until(() -> acked.entrySet().stream()
                    .filter(e -> !e.getValue().equals(atSplit.get(e.getKey()))).count() > 50);
            writer.close();

            MetaState s = c.node(0).metadata().current();
            assertThat(s.ledger(parent.id()).state()).as("the range's close is still held")
                    .isNotEqualTo(LedgerState.CLOSED);
            List<LedgerInfo> halves = s.ledgersOf(r).stream().filter(l -> l.id() != parent.id()).toList();
            assertThat(halves).as("the split opened one ledger per half and nothing opened more").hasSize(2)
                    .allSatisfy(l -> assertThat(l.opener()).isNotZero());
            assertThat(failures).as("no write failed while the range split").isEmpty();
            for (Map.Entry<Integer, Integer> e : acked.entrySet()) {
                assertThat(search(c, 1, e.getKey())).as("key " + e.getKey())
                        .isEqualTo(value(e.getKey(), e.getValue()));
            }

            c.metadata().releaseProposals();
            await().until(() -> c.node(0).metadata().current().ledger(parent.id()).state() == LedgerState.CLOSED);
            LedgerInfo closed = c.node(0).metadata().current().ledger(parent.id());
            assertThat(closed.lastEntry()).isPositive();
            assertThat(c.node(0).store().appliedEntry(parent.id()))
                    .as("d1 applied the range's ledger to the entry its close committed at")
                    .isEqualTo(closed.lastEntry());
        }
    }

    @Test
    void aLedgerASplitOpenedForAnotherProcessOfTheOwnerIsRecoveredNotWritten() throws Exception {
        try (InMemoryCluster c = new InMemoryCluster(3, 2, CONFIG)) {
            writeAll(c, 0);
            MetaState before = c.node(0).metadata().current();
            RangeDescriptor r = before.rangeOf(key(0));
            LedgerInfo parent = openLedger(before, r);
            long otherProcess = c.node(0).wal().splitCommand(r, key(50)).opener() + 1;
            Map<Long, LedgerInfo> foreign = new ConcurrentHashMap<>();
            c.node(0).metadata().subscribe(state -> state.ledgers().stream().filter(l -> l.opener() == otherProcess)
                    .forEach(l -> foreign.put(l.id(), l)));
            CommandResult done = c.node(0).metadata().submit(new MetaCommand.Split(r.id(), r.generation(), key(50),
                    parent.lastFragment().ensemble(), otherProcess), Duration.ofSeconds(5)).join();
            assertThat(done.applied()).as(done.refusal()).isTrue();
            for (int i = 0; i < 100; i++) {
                assertThat(insert(c, 2, i, 1)).as("key " + i).isEqualTo(Status.OK);
            }

            MetaState s = c.node(0).metadata().current();
            assertThat(foreign.values()).as("as last seen (closed ledgers are deleted once applied)").hasSize(2)
                    .allSatisfy(l -> {
                        assertThat(l.state()).as("recovered and closed before the halves opened their own")
                                .isEqualTo(LedgerState.CLOSED);
                        assertThat(l.lastEntry()).as("nothing was written to it").isZero();
                    });
            assertThat(s.ledgers().stream().filter(l -> l.state() == LedgerState.OPEN && l.writer().equals("d1")))
                    .as("the halves write ledgers they opened").hasSize(2)
                    .allSatisfy(l -> assertThat(l.opener()).isZero());
            for (int i = 0; i < 100; i++) {
                assertThat(search(c, 1, i)).as("key " + i).isEqualTo(value(i, 1));
            }
        }
    }

    @Test
    void anOwnerThatLostItsStoreAfterItsHalvesWroteBeforeTheRangesCloseCommittedGetsEverythingBackInOrder()
            throws Exception {
        try (InMemoryCluster c = new InMemoryCluster(3, 2, CONFIG)) {
            writeAll(c, 0);
            MetaState before = c.node(0).metadata().current();
            RangeDescriptor r = before.rangeOf(key(0));
            LedgerInfo parent = openLedger(before, r);
            c.metadata().holdProposals(cmd -> cmd instanceof MetaCommand.CloseLedger);
            assertThat(c.node(0).metadata().submit(c.node(0).wal().splitCommand(r, key(50)), Duration.ofSeconds(5))
                    .join().applied()).isTrue();
            for (int i = 0; i < 100; i++) {
                assertThat(insert(c, 2, i, 1)).as("key " + i + " written to its half").isEqualTo(Status.OK);
            }

            c.node(0).close(); // crashes: the range's close never commits, and its store is gone
            c.metadata().dropProposals();
            assertThat(c.node(1).metadata().current().ledger(parent.id()).state()).isEqualTo(LedgerState.OPEN);
            c.start(0, LocalStores.inMemory());

            for (int i = 0; i < 100; i++) {
                assertThat(search(c, 1, i)).as("key " + i + ": the range's ledger replayed before the halves'")
                        .isEqualTo(value(i, 1));
            }
            writeAndReadAll(c, 2);
        }
    }

    @Test
    void aSplitAskedOfANodeThatDoesNotOwnTheRangeIsMadeByItsOwnerAndOpensTheHalvesLedgers() throws Exception {
        try (InMemoryCluster c = new InMemoryCluster(3, 2, CONFIG)) {
            writeAll(c, 0);
            MetaState before = c.node(2).metadata().current();
            RangeDescriptor r = before.rangeOf(key(0));
            LedgerInfo parent = openLedger(before, r);
            Frame split = c.call(2, Frame.request(Opcode.SPLIT, 1, new KeyRequest(key(50)).encode()))
                    .get(30, TimeUnit.SECONDS);
            assertThat(Responses.status(split.body())).as(Responses.errorMessage(split.body())).isEqualTo(Status.OK);
            assertThat(SplitResult.fromJson(Responses.parseBytes(split.body())).right().lowHex()).isEqualTo("100032");

            List<LedgerInfo> halves = c.node(2).metadata().current().ledgersOf(r).stream()
                    .filter(l -> l.id() != parent.id()).toList();
            assertThat(halves).as("opened by the split, for d1's process").hasSize(2)
                    .allSatisfy(l -> assertThat(l.opener()).isEqualTo(c.node(0).wal().splitCommand(r, key(1))
                            .opener()));
            writeAndReadAll(c, 1);
        }
    }

    @Test
    void aHalfSplitAgainByASplitThatOpensNoLedgersServesEvenThoughItsLedgersCloseIsLost() throws Exception {
        try (InMemoryCluster c = new InMemoryCluster(3, 2, CONFIG)) {
            writeAll(c, 0);
            RangeDescriptor r = c.node(0).metadata().current().rangeOf(key(0));
            assertThat(c.node(0).metadata().submit(c.node(0).wal().splitCommand(r, key(50)), Duration.ofSeconds(5))
                    .join().applied()).isTrue();
            writeAll(c, 1);
            RangeDescriptor left = c.node(0).metadata().current().range(r.id());
            AtomicBoolean closeAsked = new AtomicBoolean();
            c.metadata().holdProposals(cmd -> cmd instanceof MetaCommand.CloseLedger && !closeAsked.getAndSet(true));
            CommandResult again = c.node(0).metadata().submit(new MetaCommand.Split(left.id(), left.generation(),
                    key(25)), Duration.ofSeconds(5)).join();
            assertThat(again.applied()).as("a split that opens no ledgers").isTrue();
            await().until(closeAsked::get);
            c.metadata().dropProposals(); // the left half's writer's close is lost: its ledger stays open

            for (int i = 0; i < 100; i++) {
                assertThat(insert(c, 2, i, 2)).as("key " + i + ": the halves recovered the ledger and serve")
                        .isEqualTo(Status.OK);
                assertThat(search(c, 1, i)).isEqualTo(value(i, 2));
            }
        }
    }
}
