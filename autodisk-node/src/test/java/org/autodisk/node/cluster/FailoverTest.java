package org.autodisk.node.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.core.Keys;
import org.autodisk.node.MiniCluster;
import org.autodisk.node.meta.MemberState;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.meta.RangeState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Failover over sockets, Raft and RocksDB (three data nodes, two log nodes, multiplicity 2): a data node that stops is
 * declared failed by the others, its ranges go to their backups, which take them over from their backup copies and
 * serve every acknowledged write; writes to those ranges succeed again through the client's retries; the rules fill
 * new backups; the node that comes back drops what moved on and rejoins as an empty member.
 */
class FailoverTest {

    static final Map<String, Object> CONFIG = Map.of("wal.multiplicity", 2, "failure.suspect-ms", 600,
            "failure.heartbeat-ms", 150, "lease.ms", 1000, "metadata.request-timeout-ms", 5000,
            "forward.timeout-ms", 5000);

    @TempDir
    Path dir;

    /** Keys spread over the whole key space, so every range holds some. */
    static byte[] key(int i) {
        return new byte[] {(byte) (i * 37), (byte) (i >> 8), (byte) i, 'k'};
    }

    @Test
    void aStoppedOwnersRangesFailOverToTheirBackupsWithEveryAcknowledgedWrite() {
        try (MiniCluster c = MiniCluster.start(3, 2, dir, CONFIG)) {
            AutoDiskClient client = AutoDiskClient.builder().seeds(c.address(1), c.address(2))
                    .requestTimeout(Duration.ofSeconds(20)).build();
            Map<String, String> acked = new TreeMap<>();
            assertThat(c.node(1).metadata().current().ranges()).hasSize(3);
            write(client, acked, 0, 400, "before");
            MetaState before = c.node(1).metadata().current();
            List<RangeDescriptor> owned = before.ranges().stream().filter(r -> r.owner().equals("d1")).toList();
            assertThat(owned).isNotEmpty().allSatisfy(r -> assertThat(r.backup()).isNotNull());

            c.stopNode(0);
            write(client, acked, 0, 400, "after");
            MetaState after = c.node(1).metadata().current();
            assertThat(after.member("d1").state()).isEqualTo(MemberState.FAILED);
            for (RangeDescriptor r : owned) {
                RangeDescriptor now = after.range(r.id());
                assertThat(now.owner()).as("range %d went to its backup", r.id()).isEqualTo(r.backup());
                assertThat(now.epoch()).isEqualTo(r.epoch() + 1);
                assertThat(now.state()).isEqualTo(RangeState.SERVING);
            }
            assertEveryWriteReads(client, acked);

            client.admin().balance(false);
            await().atMost(Duration.ofSeconds(60)).until(() -> c.node(1).metadata().current().ranges().stream()
                    .allMatch(r -> !r.backups().isEmpty() && !r.backups().contains("d1"))
                    && client.admin().migrations().migrations().isEmpty());

            c.startNode(0);
            await().atMost(Duration.ofSeconds(30)).until(() -> c.node(1).metadata().current().member("d1").state()
                    == MemberState.UP);
            MetaState rejoined = c.node(0).metadata().current();
            for (RangeDescriptor r : owned) {
                RangeDescriptor now = rejoined.range(r.id());
                assertThat(c.node(1).store().usage(now.low(), now.high()).keys() + c.node(2).store()
                        .usage(now.low(), now.high()).keys()).as("range %d's new owner holds its streams", r.id())
                        .isPositive();
                assertThat(c.node(0).store().usage(now.low(), now.high()).keys())
                        .as("d1 dropped range %d, which moved on without it", r.id()).isZero();
            }
            assertEveryWriteReads(c.clientOf(0), acked);
            client.close();
        }
    }

    private static void write(AutoDiskClient client, Map<String, String> acked, int from, int to, String tag) {
        for (int i = from; i < to; i++) {
            String value = tag + "-" + i;
            client.insert(key(i), Keys.utf8(value));
            acked.put(HexFormat.of().formatHex(key(i)), value);
        }
    }

    private static void assertEveryWriteReads(AutoDiskClient client, Map<String, String> acked) {
        acked.forEach((k, v) -> assertThat(client.search(HexFormat.of().parseHex(k)).map(String::new))
                .as("key %s", k).contains(v));
    }
}
