package org.autodisk.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.autodisk.bench.faults.DirectoryCheck;
import org.autodisk.cli.LocalCluster;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.client.AutoDiskException;
import org.autodisk.client.StreamEntry;
import org.autodisk.core.cluster.MigrationStatus;
import org.autodisk.core.cluster.RangeStatus;
import org.autodisk.node.backup.BackupStores;
import org.autodisk.node.store.LocalStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * A range moved eight times between the data node processes of a local cluster (three data nodes, all metadata
 * voters, two log nodes, log multiplicity 2) while a client writes it, each time with one process killed with
 * {@code kill -9} at one phase of the move and restarted: while the copy runs the target, the source, a log node and
 * the metadata leader; while the target catches up from the ledgers, the target and the source; right after the
 * cutover (the source cleaning up), the new owner and the old. Between the moves the range, which lost its backup
 * when it moved to it, gets a backup filled twice (an administrator's backup fill), with the new backup killed once
 * and the owner once while the copy runs. Every migration and fill finishes by itself, every acknowledged write is on
 * the final owner with its last value and in its backup's copy, every node routes the range to one and the same
 * owner, and the former owners hold none of it. With {@code -Dmigration-crash.directory=fat-btree} the cluster runs
 * the Fat-Btree, and in the end every index copy agrees with its peers and with the metadata.
 */
class MigrationCrashIT {

    private static final int PRELOAD = 6000;
    private static final int WINDOW = 8;
    /** A throttle that keeps a copy running for seconds: 6 MB at 1 MiB/s. */
    private static final long RATE = 1L << 20;
    /** The moves killed at a later phase copy unthrottled. */
    private static final long UNTHROTTLED = 0;

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    private final Map<String, String> acked = new ConcurrentHashMap<>();
    private final AtomicInteger failed = new AtomicInteger();
    /** Per key, the writes that failed: a failure after the request left may still have been applied. */
    private final Map<String, Set<String>> unanswered = new ConcurrentHashMap<>();
    private final Map<String, Integer> failures = new ConcurrentHashMap<>();

    @Test
    void killingAnyNodeOfAMoveAtItsCopyCatchUpOrCleanUpLosesNothing() throws Exception {
        // cutover-lag 1: the target catches up in rounds as long as writes come in (at most 50), a phase long
        // enough to be killed in
        try (LocalCluster cluster = LocalCluster.start(dir, 3, 2, FreePorts.base(5), List.of(),
                "wal.multiplicity: 2\nmetadata.election-timeout-ms: 500\nbalance.check-ms: 0\nfailure.suspect-ms: 0\n"
                        + "migration.chunk-bytes: 65536\nmigration.cutover-lag-entries: 1\n" + directory());
                AutoDiskClient client = AutoDiskClient.builder().seeds(cluster.addresses())
                        .requestTimeout(Duration.ofSeconds(10)).build()) {
            // a range of d1 with a low key if it has one: its keys are that key and a suffix (keyIn)
            RangeStatus range = client.admin().ranges().ranges().stream().filter(r -> r.owner().equals("d1"))
                    .max(Comparator.comparing(r -> !r.lowHex().isEmpty())).orElseThrow();
            preload(client, range);
            AtomicBoolean stop = new AtomicBoolean();
            CompletableFuture<Void> load = CompletableFuture.runAsync(() -> write(client, range, stop),
                    OwnThread.named("load"));
            moveKilling(cluster, client, range.id(), "d2", "target", "copying");
            moveKilling(cluster, client, range.id(), "d3", "source", "copying");
            moveKilling(cluster, client, range.id(), "d1", "log node", "copying");
            moveKilling(cluster, client, range.id(), "d2", "metadata leader", "copying");
            moveKilling(cluster, client, range.id(), "d3", "target", "catching up");
            moveKilling(cluster, client, range.id(), "d1", "target", "cleaning up");
            moveKilling(cluster, client, range.id(), "d2", "source", "cleaning up");
            fillKilling(cluster, client, range.id(), "d3", "target");
            moveKilling(cluster, client, range.id(), "d3", "source", "catching up");
            fillKilling(cluster, client, range.id(), "d1", "owner");
            stop.set(true);
            load.join();
            assertThat(acked.size()).isGreaterThan(PRELOAD + 200);
            assertEveryAckedWriteIsThere(client);
            assertOneOwnerEverywhere(cluster, range.id(), "d3");
            await("the backup caught up").atMost(Duration.ofSeconds(60)).until(() -> client.status().ranges().stream()
                    .anyMatch(r -> r.id() == range.id() && r.backupLag() == 0));
            await("every index copy agrees with the others and the metadata").atMost(Duration.ofSeconds(30))
                    .until(() -> DirectoryCheck.problems(client.admin().directory(), client.admin().ranges().ranges()),
                            List::isEmpty);
        }
        assertEveryAckedWriteIsInTheBackupCopyOf("d1");
    }

    /**
     * The directory: the range map, or with {@code -Dmigration-crash.directory=fat-btree} the Fat-Btree over twelve
     * ranges with index pages of fanout 3 (three levels), whose copies must follow every move.
     */
    private static String directory() {
        if (!"fat-btree".equals(System.getProperty("migration-crash.directory", "range"))) {
            return "";
        }
        return "cluster.directory: fat-btree\ndirectory.fanout: 3\ncluster.split-points: ["
                + String.join(", ", IntStream.rangeClosed(1, 11)
                        .mapToObj(i -> "\"" + String.format("0x%02x", i * 0x15) + "\"").toList()) + "]\n";
    }

    /** Fills the range's missing backup on {@code target}, killing the target or the owner while the copy runs. */
    private void fillKilling(LocalCluster cluster, AutoDiskClient client, int rangeId, String target, String victim)
            throws Exception {
        String owner = owner(client, rangeId);
        MigrationStatus m = client.admin().fillBackup(rangeId, target, RATE);
        assertThat(m.backup()).isTrue();
        await("fill " + m.id() + " copying").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(5))
                .until(() -> reached(client, m.id(), "copying"));
        int kill = cluster.ids().indexOf(victim.equals("target") ? target : owner);
        int before = acked.size();
        cluster.kill(kill);
        cluster.restart(kill);
        unthrottle(client, m.id());
        await("fill " + m.id() + " with the " + victim + " killed to end").atMost(Duration.ofSeconds(120))
                .until(() -> client.admin().migrations().migrations().isEmpty());
        RangeStatus r = client.admin().ranges().ranges().stream().filter(x -> x.id() == rangeId).findFirst()
                .orElseThrow();
        assertThat(r.owner()).as("the fill moves nothing").isEqualTo(owner);
        assertThat(r.backup()).as("after the %s was killed during the fill", victim).isEqualTo(target);
        awaitWrites(before);
    }

    /**
     * Every acknowledged write, read from the backup copy of the node that backs the range up (opened here once the
     * cluster has stopped gracefully: a copy without RocksDB's WAL flushes when it closes).
     */
    private void assertEveryAckedWriteIsInTheBackupCopyOf(String node) {
        BackupStores stores = new BackupStores(dir.resolve("data").resolve(node).resolve("backup"), false);
        try (stores) {
            LocalStore copy = stores.copy();
            List<String> wrong = new ArrayList<>();
            acked.forEach((hex, value) -> {
                byte[] v = copy.get(HexFormat.of().parseHex(hex));
                boolean ok = v != null && (value.isEmpty() && v.length == 1000
                        || laterOrSame(hex, value, new String(v, StandardCharsets.UTF_8)));
                if (!ok) {
                    wrong.add(hex + " expected " + value + " got " + (v == null ? "nothing"
                            : new String(v, StandardCharsets.UTF_8)));
                }
            });
            assertThat(wrong).as("acknowledged writes missing or older in %s's backup copy (of %d)", node,
                    acked.size()).isEmpty();
        }
    }

    private void moveKilling(LocalCluster cluster, AutoDiskClient client, int rangeId, String target, String victim,
            String phase) throws Exception {
        String source = owner(client, rangeId);
        MigrationStatus m = client.admin().migrate(rangeId, target, phase.equals("copying") ? RATE : UNTHROTTLED);
        await("migration " + m.id() + " " + phase).atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(5))
                .until(() -> reached(client, m.id(), phase));
        int kill = cluster.ids().indexOf(switch (victim) {
            case "target" -> target;
            case "source" -> source;
            case "log node" -> "l1";
            default -> client.admin().members().leader();
        });
        int before = acked.size();
        cluster.kill(kill);
        cluster.restart(kill);
        unthrottle(client, m.id());
        await("migration " + m.id() + " with the " + victim + " killed " + phase + " to end")
                .atMost(Duration.ofSeconds(120)).until(() -> client.admin().migrations().migrations().isEmpty());
        assertThat(owner(client, rangeId)).as("after the %s was killed %s", victim, phase).isEqualTo(target);
        awaitWrites(before);
    }

    /** The rest of a copy killed while throttled goes unthrottled: what was to be shown is shown. */
    private static void unthrottle(AutoDiskClient client, long id) {
        try {
            client.admin().throttleMigration(id, 0);
        } catch (AutoDiskException e) {
            // ended already, or the metadata was not reachable in time: the copy then ends at its throttle
        }
    }

    /** Waits until a hundred more writes were acknowledged; says which failures came meanwhile if they do not. */
    private void awaitWrites(int before) {
        try {
            await().atMost(Duration.ofSeconds(60)).until(() -> acked.size() > before + 100);
        } catch (RuntimeException e) {
            throw new AssertionError("no writes acknowledged after the kill; failed writes " + failed + " " + failures,
                    e);
        }
    }

    /** Whether the migration is in that phase (copying: and has recorded progress). */
    private static boolean reached(AutoDiskClient client, long id, String phase) {
        return client.admin().migrations().migrations().stream().anyMatch(s -> s.id() == id
                && s.phase().equals(phase) && (!phase.equals("copying") || s.keysCopied() > 0));
    }

    private static String owner(AutoDiskClient client, int rangeId) {
        return client.admin().ranges().ranges().stream().filter(r -> r.id() == rangeId).findFirst().orElseThrow()
                .owner();
    }

    private void preload(AutoDiskClient client, RangeStatus range) {
        byte[] value = new byte[1000];
        List<StreamEntry> batch = new ArrayList<>();
        for (int i = 0; i < PRELOAD; i++) {
            byte[] key = keyIn(range, "Ap-" + i);
            batch.add(new StreamEntry(key, value));
            acked.put(HexFormat.of().formatHex(key), "");
            if (batch.size() == 500) {
                client.insertBatch(batch);
                batch.clear();
            }
        }
    }

    /** Writes new keys and overwrites of preloaded ones; a write that fails (its owner is down) is not acked. */
    private void write(AutoDiskClient client, RangeStatus range, AtomicBoolean stop) {
        Semaphore window = new Semaphore(WINDOW);
        for (int i = 0; !stop.get(); i++) {
            byte[] key = keyIn(range, i % 2 == 0 ? "Aw-" + i : "Ap-" + (i % PRELOAD));
            String value = "value-" + i;
            window.acquireUninterruptibly();
            client.async().insert(key, value.getBytes(StandardCharsets.UTF_8)).whenComplete((ok, err) -> {
                if (err == null) {
                    acked.merge(HexFormat.of().formatHex(key), value, MigrationCrashIT::later);
                } else {
                    failed.incrementAndGet();
                    failures.merge(err.getCause() != null ? err.getCause().getClass().getSimpleName()
                            : err.getClass().getSimpleName(), 1, Integer::sum);
                    unanswered.computeIfAbsent(HexFormat.of().formatHex(key), k -> ConcurrentHashMap.newKeySet())
                            .add(value);
                }
                window.release();
            });
        }
        window.acquireUninterruptibly(WINDOW);
    }

    /**
     * Whether a key holds its last acknowledged value, or the value of a later write that failed (its outcome was not
     * known to the client: a connection lost after the request left); never an older one, never one not written.
     */
    private boolean laterOrSame(String hex, String acknowledged, String stored) {
        return stored.equals(acknowledged) || stored.startsWith("value-") && number(stored) > number(acknowledged)
                && unanswered.getOrDefault(hex, Set.of()).contains(stored);
    }

    /** The later of two acknowledged values of one key ("" is the preload, older than any write). */
    private static String later(String a, String b) {
        return number(a) >= number(b) ? a : b;
    }

    private static long number(String value) {
        return value.isEmpty() ? -1 : Long.parseLong(value.substring("value-".length()));
    }

    private void assertEveryAckedWriteIsThere(AutoDiskClient client) {
        Semaphore window = new Semaphore(WINDOW * 4);
        AtomicInteger wrong = new AtomicInteger();
        List<String> examples = new java.util.concurrent.CopyOnWriteArrayList<>();
        acked.forEach((hex, value) -> {
            window.acquireUninterruptibly();
            client.async().search(HexFormat.of().parseHex(hex)).whenComplete((v, err) -> {
                boolean ok = err == null && v.isPresent() && (value.isEmpty() && v.get().length == 1000
                        || laterOrSame(hex, value, new String(v.get(), StandardCharsets.UTF_8)));
                if (!ok && wrong.incrementAndGet() <= 5) {
                    examples.add(hex + " expected " + value + " got " + (err != null ? err : v.map(
                            b -> new String(b, StandardCharsets.UTF_8)).orElse("nothing")));
                }
                window.release();
            });
        });
        window.acquireUninterruptibly(WINDOW * 4);
        assertThat(wrong.get()).as("acknowledged writes missing or older (of %d; failed writes %d %s): %s",
                acked.size(), failed.get(), failures, examples).isZero();
    }

    private static void assertOneOwnerEverywhere(LocalCluster cluster, int rangeId, String owner) throws Exception {
        for (String address : cluster.addresses()) {
            try (AutoDiskClient one = AutoDiskClient.builder().seeds(address).build()) {
                await().atMost(Duration.ofSeconds(10)).until(() -> owner(one, rangeId).equals(owner));
                for (RangeStatus r : one.admin().ranges().ranges()) {
                    if (r.id() == rangeId) {
                        assertThat(r.keys()).as("streams of the range on its owner").isGreaterThan(PRELOAD);
                    }
                }
            }
        }
        try (AutoDiskClient d1 = AutoDiskClient.builder().seeds(cluster.addresses().get(0)).build()) {
            Map<String, Long> elsewhere = new java.util.TreeMap<>();
            d1.status().nodes().stream().filter(n -> n.role().equals("data") && !n.id().equals(owner))
                    .forEach(n -> elsewhere.put(n.id(), n.streamCount()));
            assertThat(elsewhere).as("streams on the other data nodes (their own ranges hold none)")
                    .allSatisfy((node, streams) -> assertThat(streams).as(node).isZero());
        }
    }

    /** A key in a range: its low key followed by a suffix (d1's range starts at the first key, below "U"). */
    private static byte[] keyIn(RangeStatus range, String suffix) {
        byte[] low = range.low();
        byte[] s = suffix.getBytes(StandardCharsets.US_ASCII);
        byte[] key = java.util.Arrays.copyOf(low, low.length + s.length);
        System.arraycopy(s, 0, key, low.length, s.length);
        return key;
    }
}
