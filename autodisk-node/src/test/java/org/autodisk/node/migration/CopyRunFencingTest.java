package org.autodisk.node.migration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.InsertRequest;
import org.autodisk.core.protocol.KeyRequest;
import org.autodisk.core.protocol.Opcode;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.InMemoryCluster;
import org.autodisk.node.meta.CommandResult;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.MigrationInfo;
import org.autodisk.node.meta.RangeDescriptor;
import org.junit.jupiter.api.Test;

/**
 * The schedule that lost the start of a backup fill in {@code MigrationCrashIT}: the target's copy records its
 * progress, the metadata commits the record, but the target's view of the metadata lags (there: the metadata leader
 * was the source, killed with it). The source is gone, so the copy run fails and the target starts another, which
 * reads the lagging view: no progress recorded. Unfenced, that run started a fresh copy and deleted what the first
 * had copied; a later run, once the view caught up, resumed after the recorded key, and the keys before it were
 * gone. With each run claiming the copy at the key it read (a committed {@code claim-copy}), the stale run is refused
 * before it deletes anything, and the copy resumes with every key.
 */
class CopyRunFencingTest {

    private static final int KEYS = 600;
    private static final Map<String, Object> CONFIG = Map.of("wal.multiplicity", 2, "wal.answer-timeout-ms", 2000,
            "metadata.request-timeout-ms", 1000, "forward.timeout-ms", 2000, "migration.chunk-bytes", 4096);

    /** Keys of d1's range (the first third of the key space with three data nodes). */
    private static byte[] key(int i) {
        return new byte[] {0x10, (byte) (i >> 8), (byte) i};
    }

    private static byte[] value(int i) {
        return ("value-" + i + "-" + "x".repeat(300)).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aCopyRunThatReadsALaggingViewDeletesNothingAndTheCopyResumesWithEveryKey() throws Exception {
        try (InMemoryCluster c = new InMemoryCluster(3, 2, CONFIG)) {
            for (int i = 0; i < KEYS; i++) {
                assertThat(status(c.call(0, Frame.request(Opcode.INSERT, 1, new InsertRequest(key(i), value(i))
                        .encode())))).isEqualTo(Status.OK);
            }
            AtomicInteger claims = new AtomicInteger();
            c.metadata().holdProposals(cmd -> cmd instanceof MetaCommand.ClaimCopy && claims.incrementAndGet() < 0);
            RangeDescriptor r = c.node(0).metadata().current().rangeOf(key(0));
            CommandResult started = c.node(0).metadata().submit(new MetaCommand.StartMigration(r.id(), r.epoch(),
                    r.generation(), "d2", 40L << 10, "admin"), Duration.ofSeconds(5)).join();
            long id = started.migrationId();

            await("the target's first copy run").until(() -> claims.get() >= 1);
            c.metadata().holdUpdates("d2", true);
            await("a progress record committed").atMost(Duration.ofSeconds(30))
                    .until(() -> migration(c, id).keysCopied() > 0);
            c.peers(1).setUnreachable("d1", true);
            await("two more copy runs, on the lagging view, with the source away").atMost(Duration.ofSeconds(60))
                    .until(() -> claims.get() >= 3);
            c.metadata().holdUpdates("d2", false);
            c.peers(1).setUnreachable("d1", false);

            await("the migration's end").atMost(Duration.ofSeconds(60))
                    .until(() -> c.node(0).metadata().current().migrations().isEmpty());
            assertThat(c.node(0).metadata().current().range(r.id()).owner()).isEqualTo("d2");
            List<Integer> missing = new ArrayList<>();
            for (int i = 0; i < KEYS; i++) {
                if (c.node(1).store().get(key(i)) == null) {
                    missing.add(i);
                }
            }
            assertThat(missing).as("keys the new owner lacks").isEmpty();
            Frame read = c.call(2, Frame.request(Opcode.SEARCH, 1, new KeyRequest(key(0)).encode()))
                    .get(30, TimeUnit.SECONDS);
            assertThat(Responses.parseSearch(read.body())).isEqualTo(value(0));
        }
    }

    private static MigrationInfo migration(InMemoryCluster c, long id) {
        return c.node(0).metadata().current().migration(id);
    }

    private static Status status(java.util.concurrent.CompletableFuture<Frame> f) throws Exception {
        return Responses.status(f.get(30, TimeUnit.SECONDS).body());
    }
}
