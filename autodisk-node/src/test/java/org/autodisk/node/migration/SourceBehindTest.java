package org.autodisk.node.migration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.InMemoryCluster;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.ops.Caller;
import org.autodisk.node.wire.MigrationChunk;
import org.autodisk.node.wire.MigrationReadRequest;
import org.autodisk.node.wire.PeerOp;
import org.junit.jupiter.api.Test;

/**
 * A target may see its migration start before the source applied it (the source's metadata lags): the source's
 * MIGRATION_READ then waits until its metadata caught up with the leader's and answers the chunk, instead of refusing
 * a migration it does not know yet (which failed the target's copy run and cost it a second before the next).
 */
class SourceBehindTest {

    @Test
    void aSourceBehindTheTargetAnswersOnceItCaughtUp() throws Exception {
        try (InMemoryCluster c = new InMemoryCluster(3, 1, Map.of())) {
            RangeDescriptor r = c.node(0).metadata().current().ranges().stream()
                    .filter(x -> x.owner().equals("d1")).findFirst().orElseThrow();
            c.metadata().holdUpdates("d1", true);
            long id = c.metadata().member("d2").submit(new MetaCommand.StartMigration(r.id(), r.epoch(),
                    r.generation(), "d3", 0, "admin"), Duration.ofSeconds(5)).join().migrationId();
            assertThat(c.node(0).metadata().current().migration(id)).as("d1 has not seen it").isNull();
            Frame ask = PeerOp.MIGRATION_READ.request(new MigrationReadRequest(id, r.low(), 1 << 16, true)
                    .encode());
            int asked = c.metadata().committedVersionAsks("d1");
            CompletableFuture<Frame> answer = c.call(0, ask, Caller.NODE);
            // d1 answers at once (refusing what it does not know), or asks the leader how far to catch up first
            await().atMost(Duration.ofSeconds(10)).until(() -> answer.isDone()
                    || c.metadata().committedVersionAsks("d1") > asked);
            c.metadata().holdUpdates("d1", false);
            Frame got = answer.get();
            assertThat(Responses.status(got.body())).as(() -> Responses.errorMessage(got.body()))
                    .isEqualTo(Status.OK);
            assertThat(MigrationChunk.decode(got.body()).positions()).as("a fresh snapshot's ledger positions")
                    .isNotEmpty();
        }
    }
}
