package org.autodisk.node.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.autodisk.core.Keys;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.InsertRequest;
import org.autodisk.core.protocol.KeyRequest;
import org.autodisk.core.protocol.Opcode;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.InMemoryCluster;
import org.autodisk.node.meta.LedgerInfo;
import org.autodisk.node.meta.LedgerState;
import org.autodisk.node.meta.MemberState;
import org.junit.jupiter.api.Test;

/**
 * Races around a promotion (in-memory cluster, three data nodes, two log nodes, multiplicity 2): an owner cut off with
 * writes in flight — its appends reached the log nodes, their answers had not come back — is failed over; its backup
 * recovers the ledger with those entries; the old owner acknowledges none of them unless its successor holds it (it
 * stops its writer when its lease renewals fail: their outcome is unknown), and what it refused is nowhere. When the
 * cut-off owner comes back it finds itself failed, holds its old range no more, and rejoins; nothing it acknowledged
 * is lost, and every read returns a value that was written.
 */
class PromotionRacesTest {

    /** A long answer timeout: the cut-off owner does not replace its log nodes while their answers are held. */
    private static final Map<String, Object> CONFIG = Map.of("wal.multiplicity", 2, "failure.suspect-ms", 400,
            "failure.heartbeat-ms", 100, "lease.ms", 1000, "forward.timeout-ms", 3000,
            "metadata.request-timeout-ms", 3000, "wal.answer-timeout-ms", 10_000);
    private static final List<String> OTHERS = List.of("d2", "d3", "l1", "l2");
    private static final int IN_FLIGHT = 20;

    private static byte[] key(int i) {
        return new byte[] {0x10, (byte) i};
    }

    @Test
    void writesInFlightWhenTheirOwnerIsFailedOverAreAcknowledgedOnlyIfItsSuccessorHoldsThem() throws Exception {
        try (InMemoryCluster c = new InMemoryCluster(3, 2, CONFIG)) {
            assertThat(c.node(0).metadata().current().rangeOf(key(0)).owner()).isEqualTo("d1");
            for (int i = 0; i < IN_FLIGHT; i++) {
                assertThat(status(insert(c, 0, i, "before").join())).isEqualTo(Status.OK);
            }
            LedgerInfo ledger = c.node(0).metadata().current().ledgers().stream().filter(l -> l.writer().equals("d1")
                    && l.state() == LedgerState.OPEN).findFirst().orElseThrow();
            long before = c.node(3).log().ledgers().store().lastEntry(ledger.id());
            c.peers(0).holdAnswers("l1", true);
            c.peers(0).holdAnswers("l2", true);
            List<CompletableFuture<Frame>> inFlight = new ArrayList<>();
            for (int i = 0; i < IN_FLIGHT; i++) {
                inFlight.add(insert(c, 0, i, "in-flight"));
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> c.node(3).log().ledgers().store()
                    .lastEntry(ledger.id()) > before);
            cutOff(c, true);
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20))
                    .until(() -> status(insert(c, 1, 200, "probe").join()) == Status.OK);
            assertThat(c.node(1).metadata().current().rangeOf(key(0)).owner()).isEqualTo("d2");

            c.peers(0).holdAnswers("l1", false);
            c.peers(0).holdAnswers("l2", false);
            List<Status> outcomes = new ArrayList<>();
            for (int i = 0; i < IN_FLIGHT; i++) {
                outcomes.add(status(inFlight.get(i).get()));
            }
            assertThat(outcomes).as("acknowledged, of unknown outcome, or refused before it was logged (no lease)")
                    .allMatch(s -> s == Status.OK || s == Status.OUTCOME_UNKNOWN || s == Status.NODE_UNAVAILABLE);
            List<String> onSuccessor = new ArrayList<>();
            for (int i = 0; i < IN_FLIGHT; i++) {
                String v = read(c, 1, i);
                onSuccessor.add(v);
                assertThat(v).as("key %d on the new owner", i).isIn("before", "in-flight");
                if (outcomes.get(i) == Status.OK) {
                    assertThat(v).as("key %d was acknowledged by the old owner", i).isEqualTo("in-flight");
                } else if (outcomes.get(i) == Status.NODE_UNAVAILABLE) {
                    assertThat(v).as("key %d was refused before it was logged", i).isEqualTo("before");
                }
            }
            assertThat(onSuccessor).as("the writes whose entries reached the log nodes were recovered")
                    .contains("in-flight");

            cutOff(c, false);
            await().atMost(Duration.ofSeconds(30)).until(() -> c.node(1).metadata().current().member("d1").state()
                    == MemberState.UP);
            for (int i = 0; i < IN_FLIGHT; i++) {
                assertThat(read(c, 0, i)).as("key %d through the old owner, back", i).isEqualTo(read(c, 1, i));
            }
            assertThat(c.node(0).store().get(key(0))).as("it dropped the range that moved on").isNull();
        }
    }

    /** Cuts d1 off from every node and from the metadata (clients still reach it), or joins it again. */
    private static void cutOff(InMemoryCluster c, boolean cut) {
        c.metadata().holdUpdates("d1", cut);
        for (int i = 1; i <= OTHERS.size(); i++) {
            c.peers(i).setUnreachable("d1", cut);
            c.peers(0).setUnreachable(OTHERS.get(i - 1), cut);
        }
    }

    private static CompletableFuture<Frame> insert(InMemoryCluster c, int node, int key, String value) {
        return c.call(node, Frame.request(Opcode.INSERT, 1, new InsertRequest(key(key), Keys.utf8(value)).encode()));
    }

    private static String read(InMemoryCluster c, int node, int key) {
        Frame r = c.call(node, Frame.request(Opcode.SEARCH, 1, new KeyRequest(key(key)).encode())).join();
        assertThat(status(r)).as("read of key %d through node %d", key, node).isEqualTo(Status.OK);
        byte[] v = Responses.parseSearch(r.body());
        return v == null ? null : new String(v);
    }

    private static Status status(Frame r) {
        return Responses.status(r.body());
    }
}
