package org.autodisk.node.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.autodisk.core.cluster.RangesReport;
import org.autodisk.core.cluster.SplitResult;
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

/** Without a majority of metadata voters: changes fail with a clear error; reads, writes and listings go on. */
class MetadataLossTest {

    private InMemoryCluster cluster;

    @BeforeEach
    void start() throws InterruptedException {
        cluster = new InMemoryCluster(3, Map.of());
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    private Frame call(int node, Opcode op, byte[] body) {
        return cluster.call(node, Frame.request(op, 1, body)).join();
    }

    @Test
    void aSplitThatCannotBeConfirmedSaysSoAndStreamsAreStillServed() {
        long version = cluster.metadata().member("d1").current().version();
        cluster.metadata().available(false);
        Frame split = call(1, Opcode.SPLIT, new KeyRequest(new byte[] {0x10}).encode());
        assertThat(Responses.status(split.body())).as("it may still commit: not to be sent again blindly")
                .isEqualTo(Status.OUTCOME_UNKNOWN);
        assertThat(Responses.errorMessage(split.body())).contains("could not confirm the split", "no majority");
        Frame insert = call(0, Opcode.INSERT, new InsertRequest(new byte[] {(byte) 0xF0}, new byte[] {1}).encode());
        assertThat(Responses.status(insert.body())).isEqualTo(Status.OK);
        Frame search = call(2, Opcode.SEARCH, new KeyRequest(new byte[] {(byte) 0xF0}).encode());
        assertThat(Responses.parseSearch(search.body())).containsExactly(1);
        RangesReport ranges = RangesReport.fromJson(Responses.parseBytes(call(0, Opcode.RANGES, new byte[0]).body()));
        assertThat(ranges.version()).isEqualTo(version);
        assertThat(ranges.ranges()).hasSize(3);
    }

    @Test
    void aSplitSucceedsAgainOnceTheMajorityIsBack() {
        cluster.metadata().available(false);
        call(1, Opcode.SPLIT, new KeyRequest(new byte[] {0x10}).encode());
        cluster.metadata().available(true);
        Frame split = call(1, Opcode.SPLIT, new KeyRequest(new byte[] {0x10}).encode());
        assertThat(Responses.status(split.body())).isEqualTo(Status.OK);
        SplitResult s = SplitResult.fromJson(Responses.parseBytes(split.body()));
        assertThat(s.right().lowHex()).isEqualTo("10");
        assertThat(s.right().id()).isEqualTo(3);
        assertThat(cluster.node(0).directory().locate(new byte[] {0x10}).rangeId()).isEqualTo(3);
    }
}
