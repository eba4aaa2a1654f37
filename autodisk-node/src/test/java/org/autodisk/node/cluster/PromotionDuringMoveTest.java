package org.autodisk.node.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.autodisk.core.Keys;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.InsertRequest;
import org.autodisk.core.protocol.KeyRequest;
import org.autodisk.core.protocol.Opcode;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.InMemoryCluster;
import org.autodisk.node.meta.CommandResult;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.wire.PeerOp;
import org.junit.jupiter.api.Test;

/**
 * A range's owner fails while it moves the range to its backup (in-memory cluster, three data nodes, two log nodes,
 * multiplicity 2): the target waits for a chunk the owner read from its snapshot, the owner then acknowledges newer
 * values and is cut off, and the backup is promoted. The promotion ends the move, and the promoted backup stops the
 * move's copy before it takes the range over: the old chunk, arriving late, is not written over the values it took
 * over. (Without the stop, the chunk was ingested after the takeover and the acknowledged newer values were lost.)
 */
class PromotionDuringMoveTest {

    /** Chunks wait long for the source: a move's copy outlives the owner's failure unless it is stopped. */
    private static final Map<String, Object> CONFIG = Map.of("wal.multiplicity", 2, "failure.suspect-ms", 400,
            "failure.heartbeat-ms", 100, "lease.ms", 1000, "forward.timeout-ms", 20_000,
            "metadata.request-timeout-ms", 3000, "wal.answer-timeout-ms", 2000);
    private static final List<String> OTHERS = List.of("d2", "d3", "l1", "l2");
    private static final int KEYS = 40;

    private static byte[] key(int i) {
        return new byte[] {0x10, (byte) i};
    }

    @Test
    void aChunkOfTheEndedMoveArrivingAfterTheTakeoverIsNotWritten() throws Exception {
        try (InMemoryCluster c = new InMemoryCluster(3, 2, CONFIG)) {
            RangeDescriptor r = c.node(0).metadata().current().rangeOf(key(0));
            assertThat(r.owner()).isEqualTo("d1");
            assertThat(r.backups()).contains("d2");
            for (int i = 0; i < KEYS; i++) {
                assertThat(insert(c, 0, i, "old")).isEqualTo(Status.OK);
            }
            c.peers(1).holdAnswers("d1", f -> f.opcode() == PeerOp.MIGRATION_READ.code());
            CommandResult started = c.node(0).metadata().submit(new MetaCommand.StartMigration(r.id(), r.epoch(),
                    r.generation(), "d2", 1L << 30, "admin", false), Duration.ofSeconds(5)).join();
            assertThat(started.applied()).as(started.refusal()).isTrue();
            await("the owner read the first chunk from its snapshot").atMost(Duration.ofSeconds(20))
                    .until(() -> c.peers(1).heldAnswers("d1") >= 1);
            for (int i = 0; i < KEYS; i++) {
                assertThat(insert(c, 0, i, "new")).as("key %d", i).isEqualTo(Status.OK);
            }

            cutOff(c, true);
            await("the backup promoted serves").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                    .until(() -> insert(c, 1, 200, "probe") == Status.OK);
            assertThat(c.node(1).metadata().current().range(r.id()).owner()).isEqualTo("d2");
            c.peers(1).holdAnswers("d1", false);
            await("the move's copy run on d2 ended").atMost(Duration.ofSeconds(30))
                    .until(() -> !copyRunning("d2-migration-" + started.migrationId()));

            List<String> lost = new ArrayList<>();
            for (int i = 0; i < KEYS; i++) {
                if (!"new".equals(read(c, 1, i))) {
                    lost.add(i + "=" + read(c, 1, i));
                }
            }
            assertThat(lost).as("acknowledged values the promoted backup lost").isEmpty();
        }
    }

    private static boolean copyRunning(String threadName) {
        return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals(threadName)
                && t.isAlive());
    }

    /** Cuts d1 off from every node and from the metadata (clients still reach it), or joins it again. */
    private static void cutOff(InMemoryCluster c, boolean cut) {
        c.metadata().holdUpdates("d1", cut);
        for (int i = 1; i <= OTHERS.size(); i++) {
            c.peers(i).setUnreachable("d1", cut);
            c.peers(0).setUnreachable(OTHERS.get(i - 1), cut);
        }
    }

    private static Status insert(InMemoryCluster c, int node, int key, String value) {
        Frame r = c.call(node, Frame.request(Opcode.INSERT, 1, new InsertRequest(key(key), Keys.utf8(value))
                .encode())).join();
        return Responses.status(r.body());
    }

    private static String read(InMemoryCluster c, int node, int key) {
        Frame r = c.call(node, Frame.request(Opcode.SEARCH, 1, new KeyRequest(key(key)).encode())).join();
        assertThat(Responses.status(r.body())).as("read of key %d through node %d", key, node).isEqualTo(Status.OK);
        byte[] v = Responses.parseSearch(r.body());
        return v == null ? null : new String(v);
    }
}
