package org.autodisk.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.autodisk.cli.LocalCluster;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.core.cluster.MemberStatus;
import org.autodisk.core.cluster.MembersReport;
import org.autodisk.core.cluster.RangeStatus;
import org.autodisk.core.cluster.SplitResult;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The metadata voters d1, d2 and d3 killed with {@code kill -9} one at a time, each restarted before the next, while
 * a client inserts into d4's range through d4 (four node processes and a log node): no insert fails, a split
 * committed while d2 is down holds, and every voter rejoins the metadata. Tagged "full": in .ci/run, FaultsIT kills
 * the metadata leader under load (with failover on) and checks every acknowledged write.
 */
@Tag("full")
class MetadataVotersCrashIT {

    private static final int WINDOW = 16;

    @TempDir
    Path dir;

    @Test
    void killingTheVotersOneAtATimeFailsNoInsertAndASplitCommitsMeanwhile() throws Exception {
        // no balancing: the test keeps only d4's range busy and checks who owns the halves of its split; no failover:
        // the voters it kills return and keep their ranges (failover has its own tests)
        try (LocalCluster cluster = LocalCluster.start(dir, 4, 1, FreePorts.base(5), List.of(),
                "wal.multiplicity: 1\nmetadata.election-timeout-ms: 500\nbalance.check-ms: 0\nfailure.suspect-ms: 0\n");
                AutoDiskClient viaD4 = AutoDiskClient.builder().seeds(cluster.addresses().get(3))
                        .requestTimeout(Duration.ofSeconds(20)).build()) {
            RangeStatus range = viaD4.admin().ranges().ranges().stream().filter(r -> r.owner().equals("d4"))
                    .findFirst().orElseThrow();
            Map<String, String> acked = new ConcurrentHashMap<>();
            AtomicInteger failed = new AtomicInteger();
            AtomicReference<Throwable> firstFailure = new AtomicReference<>();
            AtomicBoolean stop = new AtomicBoolean();
            CompletableFuture<Void> load = CompletableFuture.runAsync(() -> load(viaD4, range, stop, acked, failed,
                    firstFailure), OwnThread.named("load"));
            SplitResult split = null;
            for (int voter = 0; voter < 3; voter++) {
                int before = acked.size();
                cluster.kill(voter);
                if (voter == 1) {
                    split = viaD4.admin().split(keyIn(range, "v-5"));
                }
                await().atMost(Duration.ofSeconds(60)).until(() -> acked.size() >= before + 300);
                cluster.restart(voter);
                String id = cluster.ids().get(voter);
                await().atMost(Duration.ofSeconds(60)).until(() -> rejoined(viaD4.admin().members(), id));
            }
            stop.set(true);
            load.join();
            assertThat(failed.get()).as("failed inserts, first: %s", firstFailure.get()).isZero();
            assertThat(acked.size()).isGreaterThan(900);
            assertEveryAckedKeyIsThere(viaD4, acked);
            int rightId = split.right().id();
            assertThat(viaD4.admin().ranges().ranges()).filteredOn(r -> r.id() == rightId).singleElement()
                    .satisfies(r -> {
                        assertThat(r.low()).isEqualTo(keyIn(range, "v-5"));
                        assertThat(r.owner()).isEqualTo("d4");
                        assertThat(r.generation()).isEqualTo(range.generation() + 1);
                    });
            MembersReport members = viaD4.admin().members();
            assertThat(members.leader()).isIn("d1", "d2", "d3");
            assertThat(members.members()).allSatisfy(m -> assertThat(m.metadataRole()).isNotEqualTo("unreachable"));
        }
    }

    private static boolean rejoined(MembersReport members, String id) {
        return members.leader() != null && members.members().stream().filter(m -> m.id().equals(id))
                .map(MemberStatus::metadataRole).anyMatch(r -> r.equals("follower") || r.equals("leader"));
    }

    /** A key in a range: its low key followed by a suffix. */
    private static byte[] keyIn(RangeStatus range, String suffix) {
        byte[] low = range.low();
        byte[] key = Arrays.copyOf(low, low.length + suffix.length());
        System.arraycopy(suffix.getBytes(StandardCharsets.US_ASCII), 0, key, low.length, suffix.length());
        return key;
    }

    private static void load(AutoDiskClient client, RangeStatus range, AtomicBoolean stop, Map<String, String> acked,
            AtomicInteger failed, AtomicReference<Throwable> firstFailure) {
        Semaphore window = new Semaphore(WINDOW);
        for (int i = 0; !stop.get(); i++) {
            byte[] key = keyIn(range, "v-" + i);
            String value = "value-" + i;
            window.acquireUninterruptibly();
            client.async().insert(key, value.getBytes(StandardCharsets.UTF_8)).whenComplete((ok, err) -> {
                if (err == null) {
                    acked.put(HexFormat.of().formatHex(key), value);
                } else if (failed.getAndIncrement() == 0) {
                    firstFailure.set(err);
                }
                window.release();
            });
        }
        window.acquireUninterruptibly(WINDOW);
    }

    private static void assertEveryAckedKeyIsThere(AutoDiskClient client, Map<String, String> acked) {
        Semaphore window = new Semaphore(WINDOW);
        AtomicInteger wrong = new AtomicInteger();
        acked.forEach((hex, value) -> {
            window.acquireUninterruptibly();
            client.async().search(HexFormat.of().parseHex(hex)).whenComplete((v, err) -> {
                if (err != null || v.isEmpty() || !new String(v.get(), StandardCharsets.UTF_8).equals(value)) {
                    wrong.incrementAndGet();
                }
                window.release();
            });
        });
        window.acquireUninterruptibly(WINDOW);
        assertThat(wrong.get()).as("acknowledged inserts not found with their value").isZero();
    }
}
