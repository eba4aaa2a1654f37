package org.autodisk.node.migration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.LongStream;
import org.autodisk.core.Keys;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.InsertRequest;
import org.autodisk.core.protocol.KeyRequest;
import org.autodisk.core.protocol.Opcode;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.InMemoryCluster;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.MigrationInfo;
import org.autodisk.node.meta.MigrationPhase;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.store.LocalStore;
import org.autodisk.node.wire.PeerOp;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A seeded simulation of the migration data path under faults below the metadata (in-memory cluster: three data
 * nodes, two log nodes, multiplicity 2, small chunks): while a client writes and deletes keys of every range through
 * any node, a schedule drawn from the seed starts moves and backup fills (some replacing the backup), aborts, pauses
 * and resumes them, holds a node's view of the metadata back, holds a source's answers to its target's chunk reads,
 * and cuts pairs of nodes apart, each for a while. Once every fault is healed and every migration has ended, each
 * key reads, through every data node, as its last acknowledged write left it (or as a write whose outcome the client
 * could not know), and each range's backup copy holds exactly what its owner holds.
 */
@Tag("slow")
class DataPathSimulationTest {

    private static final Map<String, Object> CONFIG = Map.of("wal.multiplicity", 2, "migration.chunk-bytes", 2048,
            "migration.cutover-lag-entries", 20, "forward.timeout-ms", 5000, "metadata.request-timeout-ms", 3000,
            "wal.answer-timeout-ms", 1000, "balance.check-ms", 0);
    private static final int KEYS = 120;
    private static final int STEPS = 30;
    private static final int WRITERS = 4;
    /** Values of about 100 bytes: a throttled copy then takes a while, and the ledgers fill meanwhile. */
    private static final String PAD = "-" + "x".repeat(90);
    /** Rates a move or fill copies at (0: unthrottled): slow ones let many writes reach the ledgers meanwhile. */
    private static final long[] RATES = {0, 4096, 16_384};
    private static final String[] NODES = {"d1", "d2", "d3", "l1", "l2"};
    private static final Duration WAIT = Duration.ofSeconds(5);

    /** What the client knows of a key: its last acknowledged value ({@code null}: none or deleted), and since then. */
    private static final class Known {
        private String acked;
        private final Set<String> unknown = new HashSet<>();
    }

    private final Map<Integer, Known> model = new HashMap<>();
    private final List<Runnable> heals = new ArrayList<>();

    /** Three seeds in CI; {@code -Dautodisk.sim.seeds=N [-Dautodisk.sim.first=S]} runs N from S (by hand). */
    static LongStream seeds() {
        long first = Long.getLong("autodisk.sim.first", 281128401L);
        return LongStream.range(0, Long.getLong("autodisk.sim.seeds", 3)).map(i -> first + i);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void everyAcknowledgedWriteSurvivesMovesAndFillsUnderFaults(long seed) throws Exception {
        Random random = new Random(seed);
        try (InMemoryCluster c = new InMemoryCluster(3, 2, CONFIG)) {
            for (int k = 0; k < KEYS; k++) {
                write(c, random.nextInt(3), k, "pre-" + k, false);
            }
            AtomicBoolean writing = new AtomicBoolean(true);
            List<CompletableFuture<Void>> writers = new ArrayList<>();
            for (int wi = 0; wi < WRITERS; wi++) {
                int first = wi;
                writers.add(CompletableFuture.runAsync(() -> { // each writer its own keys: one client per key
                    Random w = new Random(seed + 1 + first);
                    for (int op = 0; writing.get(); op++) {
                        int k = first + WRITERS * w.nextInt(KEYS / WRITERS);
                        write(c, w.nextInt(3), k, "w" + first + "-" + op + PAD, w.nextInt(10) == 0);
                    }
                }, Executors.newVirtualThreadPerTaskExecutor()));
            }
            for (int step = 0; step < STEPS; step++) {
                act(c, random, step);
                Thread.sleep(100 + random.nextInt(300)); // the step's length: how long its fault acts, not a wait
            }
            heals.forEach(Runnable::run);
            writing.set(false);
            CompletableFuture.allOf(writers.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            settle(c);
            check(c, seed);
        }
    }

    /** One step of the schedule; a fault is healed a few steps later (or at the end). */
    private void act(InMemoryCluster c, Random random, int step) {
        MetaState s = c.node(0).metadata().current();
        RangeDescriptor r = s.ranges().get(random.nextInt(s.ranges().size()));
        MigrationInfo m = s.migrationOf(r.id());
        String target = NODES[random.nextInt(3)];
        switch (random.nextInt(8)) {
            case 0, 1 -> submit(c, random, new MetaCommand.StartMigration(r.id(), r.epoch(), r.generation(), target,
                    RATES[random.nextInt(RATES.length)], "sim", false));
            case 2 -> submit(c, random, new MetaCommand.StartMigration(r.id(), r.epoch(), r.generation(), target,
                    RATES[random.nextInt(RATES.length)], "sim", true, r.backups().isEmpty() ? null
                            : r.backups().get(0)));
            case 3 -> {
                if (m != null && m.phase() != MigrationPhase.CLEANING_UP) {
                    submit(c, random, new MetaCommand.EndMigration(m.id(), true, "sim step " + step));
                }
            }
            case 4 -> {
                if (m != null) {
                    submit(c, random, new MetaCommand.ControlMigration(m.id(), true, m.rateBytes()));
                    later(() -> submit(c, random, new MetaCommand.ControlMigration(m.id(), false, m.rateBytes())));
                }
            }
            case 5 -> {
                String node = NODES[random.nextInt(3)];
                c.metadata().holdUpdates(node, true);
                later(() -> c.metadata().holdUpdates(node, false));
            }
            case 6 -> {
                int t = random.nextInt(3);
                String source = NODES[random.nextInt(3)];
                c.peers(t).holdAnswers(source, f -> f.opcode() == PeerOp.MIGRATION_READ.code());
                later(() -> c.peers(t).holdAnswers(source, false));
            }
            default -> {
                int a = random.nextInt(NODES.length);
                int b = (a + 1 + random.nextInt(NODES.length - 1)) % NODES.length;
                cut(c, a, b, true);
                later(() -> cut(c, a, b, false));
            }
        }
        if (heals.size() > 2) {
            heals.remove(0).run();
        }
    }

    private void later(Runnable heal) {
        heals.add(heal);
    }

    private static void cut(InMemoryCluster c, int a, int b, boolean cut) {
        c.peers(a).setUnreachable(NODES[b], cut);
        c.peers(b).setUnreachable(NODES[a], cut);
    }

    private static void submit(InMemoryCluster c, Random random, MetaCommand command) {
        try {
            c.node(random.nextInt(3)).metadata().submit(command, WAIT).get(10, TimeUnit.SECONDS);
        } catch (Exception e) { // refused or not committed: the schedule goes on
        }
    }

    /** Resumes what is paused and waits until no migration is left and every data node's view is the same. */
    private static void settle(InMemoryCluster c) {
        for (MigrationInfo m : c.node(0).metadata().current().migrations()) {
            if (m.paused()) {
                c.node(0).metadata().submit(new MetaCommand.ControlMigration(m.id(), false, m.rateBytes()), WAIT)
                        .join();
            }
        }
        await("every migration ended").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
                .until(() -> c.node(0).metadata().current().migrations().isEmpty());
        await("every data node's view is the leader's").atMost(Duration.ofSeconds(10)).until(() -> {
            long v = c.node(0).metadata().current().version();
            return c.node(1).metadata().current().version() == v && c.node(2).metadata().current().version() == v;
        });
    }

    private void check(InMemoryCluster c, long seed) {
        List<String> wrong = new ArrayList<>();
        for (int k = 0; k < KEYS; k++) {
            Known known = model.get(k);
            for (int node = 0; node < 3; node++) {
                String got = read(c, node, k);
                if (!java.util.Objects.equals(got, known.acked) && !known.unknown.contains(String.valueOf(got))) {
                    wrong.add("key " + k + " through d" + (node + 1) + ": " + got + ", acknowledged " + known.acked
                            + (known.unknown.isEmpty() ? "" : " (unknown outcomes " + known.unknown + ")"));
                }
            }
        }
        assertThat(wrong).as("seed %d: reads that differ from the acknowledged writes", seed).isEmpty();
        await("every backup holds what its owner holds").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
                    for (RangeDescriptor r : c.node(0).metadata().current().ranges()) {
                        List<String> owned = held(c.node(index(r.owner())).store(), r);
                        for (String b : r.backups()) {
                            assertThat(held(c.node(index(b)).backups().copy(), r)).as("seed %d: %s's backup copy "
                                    + "of %s", seed, b, r).containsExactlyElementsOf(owned);
                        }
                    }
                });
    }

    private static int index(String dataNode) {
        return Integer.parseInt(dataNode.substring(1)) - 1;
    }

    private static List<String> held(LocalStore s, RangeDescriptor r) {
        return s.scan(r.low(), r.high(), 10_000, Long.MAX_VALUE).entries().stream().map(kv -> Keys.render(kv.key())
                + "=" + new String(kv.value())).toList();
    }

    private static byte[] key(int k) {
        return new byte[] {(byte) (k * 2), (byte) k};
    }

    /** Writes (or deletes) a key through a node and records what the client learned. */
    private void write(InMemoryCluster c, int node, int k, String value, boolean delete) {
        Frame request = delete ? Frame.request(Opcode.DELETE, 1, new KeyRequest(key(k)).encode())
                : Frame.request(Opcode.INSERT, 1, new InsertRequest(key(k), Keys.utf8(value)).encode());
        Status status;
        try {
            status = Responses.status(c.call(node, request).get(30, TimeUnit.SECONDS).body());
        } catch (Exception e) {
            status = null;
        }
        String outcome = delete ? null : value;
        synchronized (model) {
            Known known = model.computeIfAbsent(k, x -> new Known());
            if (status == Status.OK) {
                known.acked = outcome;
                known.unknown.clear();
            } else {
                known.unknown.add(String.valueOf(outcome));
            }
        }
    }

    private static String read(InMemoryCluster c, int node, int k) {
        Frame r = c.call(node, Frame.request(Opcode.SEARCH, 1, new KeyRequest(key(k)).encode())).join();
        assertThat(Responses.status(r.body())).as("read of key %d through d%d", k, node + 1).isEqualTo(Status.OK);
        byte[] v = Responses.parseSearch(r.body());
        return v == null ? null : new String(v);
    }
}
