package org.autodisk.node.rangelog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.MiniCluster;
import org.autodisk.node.ledger.InMemoryLedgerStore;
import org.autodisk.node.ledger.LedgerStore;
import org.autodisk.node.wire.PeerOp;
import org.junit.jupiter.api.Test;

/**
 * A log node whose journal failed (a full disk) still answers and heartbeats, but says it takes no writes, so the
 * writers that restore their multiplicity do not take it back into their ensembles (they did, every maintenance round,
 * and failed on it at the next write); once it takes writes again it is up again.
 */
class LogNodesUpTest {

    private static final int L1 = 1;

    @Test
    void aLogNodeWhoseJournalFailedIsNotUpForWritersButStillAnswers() {
        try (MiniCluster c = MiniCluster.start(1, 2, null, Map.of())) {
            InMemoryLedgerStore journal = LedgerStore.inMemory("l1");
            c.stopNode(L1);
            c.startNode(L1, Map.of(), b -> b.ledgerStore(journal));
            LogNodesUp up = new LogNodesUp(c.node(0).peers(), 3000);
            List<String> logNodes = List.of("l1", "l2");
            up.probe(logNodes);
            await().atMost(Duration.ofSeconds(10)).until(() -> probed(up, logNodes, List.of("l1", "l2")));

            journal.failWrites(true);
            await().atMost(Duration.ofSeconds(10)).until(() -> probed(up, logNodes, List.of("l2")));
            Frame brief = c.node(0).peers().send("l1", PeerOp.NODE_INFO.request(new byte[] {PeerOp.BRIEF})).join();
            assertThat(Responses.status(brief.body())).as("it still answers status").isEqualTo(Status.OK);
            Frame writable = c.node(0).peers().send("l1", PeerOp.NODE_INFO.request(new byte[] {PeerOp.WRITABLE}))
                    .join();
            assertThat(Responses.status(writable.body())).isEqualTo(Status.NODE_UNAVAILABLE);
            assertThat(Responses.errorMessage(writable.body())).contains("l1 takes no writes", "fault hook");

            journal.failWrites(false);
            await().atMost(Duration.ofSeconds(10)).until(() -> probed(up, logNodes, List.of("l1", "l2")));
        }
    }

    private static boolean probed(LogNodesUp up, List<String> logNodes, List<String> expected) {
        up.probe(logNodes);
        return up.up(logNodes).equals(expected);
    }
}
