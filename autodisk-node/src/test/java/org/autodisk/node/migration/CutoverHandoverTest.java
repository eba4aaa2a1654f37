package org.autodisk.node.migration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.autodisk.core.cluster.MetricNames;
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
import org.autodisk.node.meta.RangeDescriptor;
import org.junit.jupiter.api.Test;

/**
 * The cutover's handover (LEDGER_HANDOVER): the source tells the target where its ledger ends once every write it took
 * is acknowledged, and the target serves from there without waiting for the close to commit. With every ledger close
 * held back by the metadata's fault hook, the range moves under a writer, serves on the target, and loses nothing;
 * the close, released, commits at the entry that was handed over. Without the handover the target would wait for the
 * close, then recover the ledger, whose close is held too: the range would not serve.
 */
class CutoverHandoverTest {

    private static final Map<String, Object> CONFIG = Map.of("wal.multiplicity", 2, "wal.answer-timeout-ms", 2000,
            "metadata.request-timeout-ms", 5000, "forward.timeout-ms", 20_000);

    /** Keys of d1's range (the first third of the key space with three data nodes). */
    private static byte[] key(int i) {
        return new byte[] {0x10, (byte) (i >> 8), (byte) i};
    }

    private static Status insert(InMemoryCluster c, int node, int i, int version) throws Exception {
        Frame f = c.call(node, Frame.request(Opcode.INSERT, 1, new InsertRequest(key(i), value(i, version))
                .encode())).get(30, TimeUnit.SECONDS);
        return Responses.status(f.body());
    }

    private static byte[] value(int i, int version) {
        return ("v" + i + "-" + version).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    private static byte[] search(InMemoryCluster c, int node, int i) throws Exception {
        Frame f = c.call(node, Frame.request(Opcode.SEARCH, 1, new KeyRequest(key(i)).encode()))
                .get(30, TimeUnit.SECONDS);
        return Responses.status(f.body()) == Status.OK ? Responses.parseSearch(f.body()) : null;
    }

    /**
     * Holds every ledger close back, then starts moving d1's range to d2.
     *
     * @return the source's open ledger of the range, the one it will hand over
     */
    private static LedgerInfo moveToD2WithClosesHeld(InMemoryCluster c, RangeDescriptor r) {
        c.metadata().holdProposals(cmd -> cmd instanceof MetaCommand.CloseLedger);
        LedgerInfo open = c.node(0).metadata().current().ledgersOf(r).stream()
                .filter(l -> l.state() == LedgerState.OPEN).findFirst().orElseThrow();
        CommandResult started = c.node(0).metadata().submit(new MetaCommand.StartMigration(r.id(), r.epoch(),
                r.generation(), "d2", 0, "admin"), Duration.ofSeconds(5)).join();
        assertThat(started.applied()).as(started.refusal()).isTrue();
        return open;
    }

    @Test
    void theTargetServesFromTheHandoverWhileTheSourcesCloseIsHeldAndNothingIsLost() throws Exception {
        try (InMemoryCluster c = new InMemoryCluster(3, 2, CONFIG)) {
            for (int i = 0; i < 100; i++) {
                assertThat(insert(c, 2, i, 0)).isEqualTo(Status.OK);
            }
            LoopWriter writer = new LoopWriter(100, (i, n) -> insert(c, 2, i, n));
            Map<Integer, Integer> acked = writer.acked();
            List<String> failures = writer.failures();
            await().until(() -> acked.size() > 20);
            RangeDescriptor r = c.node(0).metadata().current().rangeOf(key(0));
            LedgerInfo sources = moveToD2WithClosesHeld(c, r);
            await().atMost(Duration.ofSeconds(30)).until(() -> c.node(1).metadata().current().range(r.id()).owner()
                    .equals("d2"));
            int acksAtCutover = acked.size();
            await("writes go on, served by the new owner").atMost(Duration.ofSeconds(30))
                    .until(() -> insert(c, 0, 100, 1) == Status.OK);
            writer.close();

            assertThat(c.node(1).metadata().current().ledger(sources.id()).state())
                    .as("the source's close is still held").isNotEqualTo(LedgerState.CLOSED);
            assertThat(failures).as("no write failed while the range moved").isEmpty();
            assertThat(acked.size()).isGreaterThanOrEqualTo(acksAtCutover);
            for (Map.Entry<Integer, Integer> e : acked.entrySet()) {
                assertThat(search(c, 1, e.getKey())).as("key " + e.getKey() + " on d2")
                        .isEqualTo(value(e.getKey(), e.getValue()));
            }
            assertThat(c.node(1).metrics().snapshot().get(MetricNames.MIGRATION_PAUSED_MS))
                    .as("the target counted how long writes paused").isPositive();

            c.metadata().releaseProposals();
            await().until(() -> c.node(1).metadata().current().ledger(sources.id()).state() == LedgerState.CLOSED);
            LedgerInfo closed = c.node(1).metadata().current().ledger(sources.id());
            assertThat(closed.lastEntry()).as("the source wrote its ledger").isPositive();
            assertThat(c.node(1).store().appliedEntry(sources.id()))
                    .as("d2 replayed the ledger to the entry its close commits at, as it was handed over")
                    .isEqualTo(closed.lastEntry());
        }
    }

    @Test
    void aSourceThatCrashesBeforeItsCloseCommitsLeavesTheTargetServingAndTheTargetClosesTheLedger() throws Exception {
        try (InMemoryCluster c = new InMemoryCluster(3, 2, CONFIG)) {
            for (int i = 0; i < 50; i++) {
                assertThat(insert(c, 2, i, 0)).isEqualTo(Status.OK);
            }
            RangeDescriptor r = c.node(0).metadata().current().rangeOf(key(0));
            LedgerInfo sources = moveToD2WithClosesHeld(c, r);
            await("served by the new owner").atMost(Duration.ofSeconds(30)).until(() -> c.node(1).metadata()
                    .current().range(r.id()).owner().equals("d2") && insert(c, 2, 50, 1) == Status.OK);

            c.node(0).close(); // the source crashes, and its close never commits
            c.metadata().dropProposals();
            for (int i = 51; i < 60; i++) {
                assertThat(insert(c, 2, i, 1)).as("d2 serves with the source down").isEqualTo(Status.OK);
            }
            await("d2 recovers and closes the ledger it was handed").atMost(Duration.ofSeconds(30))
                    .until(() -> c.node(1).metadata().current().ledger(sources.id()).state() == LedgerState.CLOSED);
            LedgerInfo closed = c.node(1).metadata().current().ledger(sources.id());
            assertThat(c.node(1).store().appliedEntry(sources.id()))
                    .as("the recovery closed the ledger at the entry d2 replayed to").isEqualTo(closed.lastEntry());
            for (int i = 0; i < 60; i++) {
                assertThat(search(c, 1, i)).as("key " + i).isEqualTo(value(i, i < 50 ? 0 : 1));
            }
        }
    }
}
