package org.autodisk.node.migration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.client.InvalidRequestException;
import org.autodisk.core.Keys;
import org.autodisk.core.cluster.MigrationStatus;
import org.autodisk.node.MiniCluster;
import org.autodisk.node.meta.CommandResult;
import org.autodisk.node.meta.LedgerInfo;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.Metadata;
import org.autodisk.node.meta.MigrationPhase;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.meta.RangeState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Migrations between data nodes of an in-process cluster with log nodes: a range moves while it is written, no
 * acknowledged write is lost, no write fails, the source drops its copy; a paused migration resumes; an aborted one
 * leaves the range where it was and the target drops its partial copy; bad commands change nothing.
 */
class MigrationTest {

    private static final Map<String, Object> CONFIG = Map.of("wal.multiplicity", 2, "wal.answer-timeout-ms", 2000,
            "metadata.request-timeout-ms", 5000, "forward.timeout-ms", 20_000, "migration.chunk-bytes", 64 * 1024);

    /** Keys of d1's range (the first third of the key space with three data nodes). */
    private static byte[] key(int i) {
        return new byte[] {0x10, (byte) (i >> 16), (byte) (i >> 8), (byte) i};
    }

    private static byte[] value(int i, int version) {
        return Keys.utf8("value-" + i + "-" + version + "-" + "x".repeat(200));
    }

    @Test
    void aRangeMovesWhileItIsWrittenAndEveryAcknowledgedWriteIsThereOnTheNewOwner(@TempDir Path dir)
            throws InterruptedException {
        try (MiniCluster c = MiniCluster.start(3, 2, dir, CONFIG)) {
            AutoDiskClient client = c.clientOf(1);
            for (int i = 0; i < 3000; i++) {
                client.insert(key(i), value(i, 0));
            }
            RangeDescriptor before = c.node(0).metadata().current().rangeOf(key(0));
            Map<Integer, byte[]> acked = new ConcurrentHashMap<>();
            List<Throwable> failures = new CopyOnWriteArrayList<>();
            AtomicBoolean stop = new AtomicBoolean();
            Thread writer = Thread.ofPlatform().start(() -> {
                for (int i = 0; !stop.get(); i++) {
                    int k = i % 2 == 0 ? 3000 + i : i % 3000;
                    byte[] v = value(k, i);
                    try {
                        client.insert(key(k), v);
                        acked.put(k, v);
                    } catch (RuntimeException e) {
                        failures.add(e);
                    }
                }
            });
            await().until(() -> acked.size() > 200);
            AtomicReference<List<Long>> atCutover = new AtomicReference<>();
            c.node(0).metadata().subscribe(st -> {
                if (st.range(before.id()).epoch() == before.epoch() + 1) {
                    atCutover.compareAndSet(null, st.ledgersOf(st.range(before.id())).stream()
                            .filter(l -> l.epoch() == before.epoch() + 1).map(LedgerInfo::id).toList());
                }
            });
            MigrationStatus started = client.admin().migrate(before.id(), "d2", 2L << 20);
            assertThat(started.phase()).isEqualTo("copying");
            assertThat(started.source()).isEqualTo("d1");
            await().atMost(Duration.ofSeconds(60)).until(() -> client.admin().migrations().migrations().isEmpty());
            await().until(() -> acked.size() > 1500);
            stop.set(true);
            writer.join();

            assertThat(failures).as("no write fails while its range moves").isEmpty();
            MetaState s = c.node(0).metadata().current();
            RangeDescriptor after = s.range(before.id());
            assertThat(after.owner()).isEqualTo("d2");
            assertThat(after.epoch()).isEqualTo(before.epoch() + 1);
            assertThat(after.state()).isEqualTo(RangeState.SERVING);
            List<LedgerInfo> written = s.ledgersOf(after).stream().filter(l -> l.epoch() == after.epoch()).toList();
            assertThat(written).extracting(LedgerInfo::writer).containsExactly("d2");
            assertThat(atCutover.get()).as("the new owner writes the ledger its cutover opened")
                    .containsExactly(written.get(0).id());
            for (Map.Entry<Integer, byte[]> e : acked.entrySet()) {
                assertThat(client.search(key(e.getKey()))).as("key " + e.getKey()).contains(e.getValue());
            }
            for (int i = 0; i < 3000; i++) {
                assertThat(client.search(key(i))).as("key " + i).isPresent();
            }
            long expected = 3000 + acked.keySet().stream().filter(k -> k >= 3000).count();
            assertThat(c.node(1).store().usage(after.low(), after.high()).keys()).isEqualTo(expected);
            assertThat(c.node(0).store().usage(after.low(), after.high()).keys()).as("the source deleted its copy")
                    .isZero();
        }
    }

    @Test
    void aPausedMigrationWaitsAndResumesFromWhereItWas() {
        try (MiniCluster c = MiniCluster.start(3, 2, null, CONFIG)) {
            AutoDiskClient client = c.clientOf(0);
            for (int i = 0; i < 2000; i++) {
                client.insert(key(i), value(i, 0));
            }
            RangeDescriptor r = c.node(0).metadata().current().rangeOf(key(0));
            MigrationStatus m = client.admin().migrate(r.id(), "d3", 100L * 1024);
            await().until(() -> status(client, m.id()).keysCopied() > 0);
            assertThat(client.admin().pauseMigration(m.id()).paused()).isTrue();
            long copied = status(client, m.id()).keysCopied();
            assertThat(status(client, m.id()).phase()).isEqualTo("copying");
            client.admin().throttleMigration(m.id(), 0);
            assertThat(client.admin().resumeMigration(m.id()).paused()).isFalse();
            await().atMost(Duration.ofSeconds(60)).until(() -> client.admin().migrations().migrations().isEmpty());
            assertThat(copied).isLessThan(2000);
            assertThat(c.node(0).metadata().current().range(r.id()).owner()).isEqualTo("d3");
            for (int i = 0; i < 2000; i++) {
                assertThat(client.search(key(i))).as("key " + i).contains(value(i, 0));
            }
        }
    }

    @Test
    void anAbortedMigrationLeavesTheRangeWhereItWasAndTheTargetDropsItsCopy() {
        try (MiniCluster c = MiniCluster.start(3, 2, null, CONFIG)) {
            AutoDiskClient client = c.clientOf(0);
            for (int i = 0; i < 2000; i++) {
                client.insert(key(i), value(i, 0));
            }
            RangeDescriptor r = c.node(0).metadata().current().rangeOf(key(0));
            MigrationStatus m = client.admin().migrate(r.id(), "d2", 50L * 1024);
            await().until(() -> c.node(1).store().usage(r.low(), r.high()).keys() > 0);
            assertThat(client.admin().abortMigration(m.id()).phase()).isEqualTo("aborted");
            RangeDescriptor now = c.node(0).metadata().current().range(r.id());
            assertThat(now.owner()).isEqualTo("d1");
            assertThat(now.epoch()).isEqualTo(r.epoch());
            assertThat(now.state()).isEqualTo(RangeState.SERVING);
            await().until(() -> c.node(1).store().usage(r.low(), r.high()).keys() == 0);
            client.insert(key(5000), value(5000, 1));
            assertThat(client.search(key(5000))).contains(value(5000, 1));
            assertThat(client.admin().migrations().migrations()).isEmpty();
        }
    }

    @Test
    void writesWaitingOnTheSourceWhenTheRangeCutsOverGoToTheNewOwnerAndNoneFails(@TempDir Path dir) {
        Map<String, Object> patient = new java.util.HashMap<>(CONFIG);
        patient.put("forward.timeout-ms", 60_000);
        try (MiniCluster c = MiniCluster.start(3, 2, dir, patient);
                AutoDiskClient viaD1 = AutoDiskClient.builder().seeds(c.address(0))
                        .requestTimeout(Duration.ofSeconds(90)).build()) {
            for (int i = 0; i < 10; i++) {
                viaD1.insert(key(i), value(i, 0));
            }
            c.stopNode(3);
            c.stopNode(4);
            assertThatThrownBy(() -> c.impatientClientOf(0).insert(key(10), value(10, 0))).as("no log node is up");
            await().until(() -> c.node(0).wal().describe().contains("not serving yet"));
            List<CompletableFuture<Void>> waiting = IntStream.range(20, 70)
                    .mapToObj(i -> viaD1.async().insert(key(i), value(i, 1))).toList();
            Metadata meta = c.node(0).metadata();
            RangeDescriptor r = meta.current().rangeOf(key(0));
            long id = commit(meta, new MetaCommand.StartMigration(r.id(), r.epoch(), r.generation(), "d2", 0,
                    "admin")).migrationId();
            commit(meta, new MetaCommand.ControlMigration(id, true, 0));
            // caught up by the test (as the run that holds the copy; a run that claims it meanwhile: again), or
            // the target copied the ten streams first
            await().until(() -> meta.current().migration(id).phase() == MigrationPhase.CATCHING_UP
                    || meta.submit(new MetaCommand.MigrationProgress(id, MigrationPhase.COPYING,
                            MigrationPhase.CATCHING_UP, 0, 0, "", meta.current().migration(id).copyRun()),
                            Duration.ofSeconds(5)).join().applied());
            commit(meta, new MetaCommand.ControlMigration(id, false, 0));
            CommandResult cut = meta.submit(new MetaCommand.CutOver(id, List.of(), List.of()), Duration.ofSeconds(5))
                    .join();
            assertThat(cut.applied() || meta.current().range(r.id()).owner().equals("d2"))
                    .as("cut over by the test, or by the target once resumed: %s", cut.refusal()).isTrue();
            c.startNode(3);
            c.startNode(4);
            assertThat(waiting).allSatisfy(f -> assertThat(f).succeedsWithin(Duration.ofSeconds(90)));
            assertThat(meta.current().range(r.id()).owner()).isEqualTo("d2");
            for (int i = 20; i < 70; i++) {
                assertThat(viaD1.search(key(i))).as("key " + i).contains(value(i, 1));
            }
            for (int i = 0; i < 10; i++) {
                assertThat(viaD1.search(key(i))).as("key " + i + ", replayed from the source's ledger")
                        .contains(value(i, 0));
            }
        }
    }

    private static CommandResult commit(Metadata meta, MetaCommand command) {
        CommandResult res = meta.submit(command, Duration.ofSeconds(5)).join();
        assertThat(res.applied()).as(res.refusal()).isTrue();
        return res;
    }

    @Test
    void badMigrationCommandsAreRefusedAndChangeNothing() {
        try (MiniCluster c = MiniCluster.start(3, 2, null, CONFIG)) {
            AutoDiskClient client = c.clientOf(0);
            for (int i = 0; i < 500; i++) {
                client.insert(key(i), value(i, 0));
            }
            RangeDescriptor r = c.node(0).metadata().current().rangeOf(key(0));
            assertThatThrownBy(() -> client.admin().migrate(999, "d2", null))
                    .isInstanceOf(InvalidRequestException.class).hasMessageContaining("no range 999");
            assertThatThrownBy(() -> client.admin().migrate(r.id(), "d9", null))
                    .isInstanceOf(InvalidRequestException.class).hasMessageContaining("no member d9");
            assertThatThrownBy(() -> client.admin().migrate(r.id(), "d1", null))
                    .isInstanceOf(InvalidRequestException.class).hasMessageContaining("owns");
            assertThatThrownBy(() -> client.admin().migrate(r.id(), "l1", null))
                    .isInstanceOf(InvalidRequestException.class).hasMessageContaining("log node");
            assertThatThrownBy(() -> client.admin().pauseMigration(42))
                    .isInstanceOf(InvalidRequestException.class).hasMessageContaining("no migration 42");
            MigrationStatus m = client.admin().migrate(r.id(), "d2", 1024L);
            assertThatThrownBy(() -> client.admin().migrate(r.id(), "d3", null))
                    .isInstanceOf(InvalidRequestException.class).hasMessageContaining("already moving");
            assertThat(client.admin().migrations().migrations()).extracting(MigrationStatus::id)
                    .containsExactly(m.id());
            assertThat(c.node(0).metadata().current().range(r.id()).owner()).isEqualTo("d1");
            assertThatThrownBy(() -> client.admin().throttleMigration(m.id(), -5))
                    .isInstanceOf(InvalidRequestException.class).hasMessageContaining("rate");
            client.admin().abortMigration(m.id());
        }
    }

    private static MigrationStatus status(AutoDiskClient client, long id) {
        return client.admin().migrations().migrations().stream().filter(m -> m.id() == id).findFirst()
                .orElseThrow();
    }
}
