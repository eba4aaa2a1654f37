package org.autodisk.node.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;
import org.autodisk.core.cluster.RangeStatus;
import org.autodisk.core.cluster.RangesReport;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.InsertRequest;
import org.autodisk.core.protocol.KeyRequest;
import org.autodisk.core.protocol.Opcode;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.InMemoryCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The shipped split rule: a range past range.split-keys splits by itself until every range is under it. */
class AutoSplitTest {

    private InMemoryCluster cluster;

    @BeforeEach
    void start() throws InterruptedException {
        cluster = new InMemoryCluster(2, Map.of("range.split-keys", 50, "range.check-ms", 20));
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    private Frame call(int node, Opcode op, byte[] body) {
        return cluster.call(node, Frame.request(op, 1, body)).join();
    }

    private RangesReport ranges() {
        return RangesReport.fromJson(Responses.parseBytes(call(1, Opcode.RANGES, new byte[0]).body()));
    }

    @Test
    void aGrowingRangeSplitsOnItsOwnerWithoutMovingData() {
        for (int i = 0; i < 200; i++) {
            byte[] key = {0x10, (byte) i};
            assertThat(Responses.status(call(1, Opcode.INSERT, new InsertRequest(key, new byte[] {1}).encode())
                    .body())).isEqualTo(Status.OK);
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> ranges().ranges().stream()
                .allMatch(r -> r.keys() >= 0 && r.keys() <= 50));
        RangesReport r = ranges();
        assertThat(r.ranges()).as("200 keys need at least 4 ranges of at most 50, besides d2's")
                .hasSizeGreaterThanOrEqualTo(5);
        assertThat(r.ranges()).filteredOn(x -> x.generation() > 1).allSatisfy(x -> {
            assertThat(x.owner()).isEqualTo("d1");
            assertThat(x.epoch()).isEqualTo(1);
        });
        assertThat(r.ranges().stream().mapToLong(RangeStatus::keys).sum()).isEqualTo(200);
        assertThat(cluster.node(0).store().count()).isEqualTo(200);
        for (int i = 0; i < 200; i += 7) {
            Frame found = call(1, Opcode.SEARCH, new KeyRequest(new byte[] {0x10, (byte) i}).encode());
            assertThat(Responses.parseSearch(found.body())).containsExactly(1);
        }
    }
}
