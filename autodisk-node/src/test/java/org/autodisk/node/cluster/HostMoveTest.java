package org.autodisk.node.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.client.HostMoveResult;
import org.autodisk.core.Keys;
import org.autodisk.core.cluster.MigrationCommand;
import org.autodisk.core.cluster.MigrationStatus;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.KeyValue;
import org.autodisk.core.protocol.MigrationWriteRequest;
import org.autodisk.core.protocol.Opcode;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.MiniCluster;
import org.autodisk.node.meta.RangeDescriptor;
import org.junit.jupiter.api.Test;

/**
 * The host-driven baseline: the client reads a range and writes it to the target itself, and the range moves with
 * nothing lost while it is written; MIGRATION_WRITE is refused, with nothing written, unless it feeds a host-driven
 * migration on its target with keys of the range.
 */
class HostMoveTest {

    private static final Map<String, Object> CONFIG = Map.of("wal.multiplicity", 2, "wal.answer-timeout-ms", 2000,
            "forward.timeout-ms", 20_000);

    /** Keys of d1's range (the first third of the key space with three data nodes). */
    private static byte[] key(int i) {
        return new byte[] {0x10, (byte) (i >> 16), (byte) (i >> 8), (byte) i};
    }

    @Test
    void aHostMovesARangeWhileItIsWrittenAndNothingIsLost() throws InterruptedException {
        try (MiniCluster c = MiniCluster.start(3, 2, null, CONFIG)) {
            AutoDiskClient client = c.clientOf(1);
            for (int i = 0; i < 2500; i++) {
                client.insert(key(i), Keys.utf8("v" + i));
            }
            RangeDescriptor range = c.node(0).metadata().current().rangeOf(key(0));
            Map<Integer, byte[]> acked = new ConcurrentHashMap<>();
            List<Throwable> failures = new CopyOnWriteArrayList<>();
            AtomicBoolean stop = new AtomicBoolean();
            Thread writer = Thread.ofPlatform().start(() -> {
                for (int i = 0; !stop.get(); i++) {
                    int k = i % 2 == 0 ? 2500 + i : i % 2500;
                    byte[] v = Keys.utf8("w" + i);
                    try {
                        client.insert(key(k), v);
                        acked.put(k, v);
                    } catch (RuntimeException e) {
                        failures.add(e);
                    }
                }
            });
            await().until(() -> acked.size() > 100);
            HostMoveResult moved = client.admin().moveByHost(range.id(), "d2");
            await().until(() -> acked.size() > 600);
            stop.set(true);
            writer.join();
            assertThat(failures).isEmpty();
            assertThat(moved.streams()).isGreaterThanOrEqualTo(2500);
            assertThat(moved.copyNanos()).isLessThanOrEqualTo(moved.totalNanos());
            assertThat(c.node(0).metadata().current().range(range.id()).owner()).isEqualTo("d2");
            for (int i = 0; i < 2500; i++) {
                byte[] expected = acked.getOrDefault(i, Keys.utf8("v" + i));
                assertThat(client.search(key(i))).as("key %d", i).hasValue(expected);
            }
            acked.forEach((k, v) -> assertThat(client.search(key(k))).as("key %d", k).hasValue(v));
            assertThat(c.node(0).store().get(key(1))).as("the source dropped its copy").isNull();
        }
    }

    @Test
    void hostWritesAreRefusedUnlessTheyFeedAHostDrivenMigrationOnItsTargetWithKeysOfItsRange() throws Exception {
        Map<String, Object> smallChunks = new java.util.HashMap<>(CONFIG);
        smallChunks.put("migration.chunk-bytes", 4096);
        try (MiniCluster c = MiniCluster.start(3, 2, null, smallChunks);
                RawConnection d2 = RawConnection.handshaken(c.address(1));
                RawConnection d3 = RawConnection.handshaken(c.address(2))) {
            AutoDiskClient client = c.clientOf(0);
            for (int i = 0; i < 200; i++) {
                client.insert(key(i), new byte[2000]);
            }
            int range = c.node(0).metadata().current().rangeOf(key(0)).id();
            byte[] outside = {(byte) 0xF0};
            assertError(write(d2, 99, List.of()), Status.NODE_UNAVAILABLE, "has not seen migration 99 yet");
            MigrationStatus slow = client.admin().migrate(range, "d2", 1000L);
            await().until(() -> c.node(1).metadata().current().migration(slow.id()) != null);
            assertError(write(d2, slow.id(), List.of()), Status.INVALID_ARGUMENT, "copies by itself");
            client.admin().abortMigration(slow.id());
            await().until(() -> c.node(1).metadata().current().migrations().isEmpty());
            assertError(write(d2, slow.id(), List.of()), Status.INVALID_ARGUMENT, "no migration " + slow.id()
                    + " under way");
            Frame started = ask(d2, Frame.request(Opcode.MIGRATE, 5, MigrationCommand.startByHost(range, "d2")
                    .toJson()));
            long id = MigrationStatus.fromJson(Responses.parseBytes(started.body())).id();
            await().until(() -> Responses.status(write(d2, id, List.of()).body()) == Status.OK);
            await().until(() -> c.node(2).metadata().current().migration(id) != null);
            assertError(write(d3, id, List.of()), Status.INVALID_ARGUMENT, "not the target of migration " + id);
            assertError(write(d2, id, List.of(new KeyValue(key(1), new byte[1]), new KeyValue(outside,
                    new byte[1]))), Status.INVALID_ARGUMENT, "is outside range " + range);
            assertThat(c.node(1).store().get(outside)).isNull();
            assertError(ask(d2, Frame.request(Opcode.MIGRATION_WRITE, 9, new byte[] {0, 1})), Status.MALFORMED,
                    "");
            client.admin().abortMigration(id);
            await().until(() -> client.admin().migrations().migrations().isEmpty());
            assertThat(c.node(0).metadata().current().range(range).owner()).isEqualTo("d1");
            assertThat(client.search(key(7))).hasValue(new byte[2000]);
        }
    }

    private static Frame write(RawConnection c, long id, List<KeyValue> streams) throws Exception {
        return ask(c, Frame.request(Opcode.MIGRATION_WRITE, 7, new MigrationWriteRequest(id, false, streams)
                .encode()));
    }

    private static Frame ask(RawConnection c, Frame request) throws Exception {
        c.send(request);
        return c.read();
    }

    private static void assertError(Frame reply, Status status, String text) {
        assertThat(Responses.status(reply.body())).isEqualTo(status);
        assertThat(Responses.errorMessage(reply.body())).contains(text);
    }
}
