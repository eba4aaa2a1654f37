package org.autodisk.node.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.autodisk.core.cluster.SplitResult;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.InsertRequest;
import org.autodisk.core.protocol.Opcode;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.InMemoryCluster;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.wire.PeerOp;
import org.autodisk.node.wire.RangeSplitRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * RANGE_SPLIT, with which the balancer has a range's owner split it at its middle stream before the upper half moves:
 * the owner splits a range it holds at the generation asked; a stale generation, another owner's range, a range of
 * fewer than two streams or a malformed body are refused, and nothing is split.
 */
class RangeSplitTest {

    private InMemoryCluster cluster;

    @BeforeEach
    void start() throws InterruptedException {
        cluster = new InMemoryCluster(2, Map.of());
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    private Frame ask(int node, byte[] body) {
        return cluster.call(node, PeerOp.RANGE_SPLIT.request(body), Caller.NODE).join();
    }

    private MetaState meta() {
        return cluster.node(0).metadata().current();
    }

    @Test
    void theOwnerSplitsAtItsMiddleStreamOnlyAtTheGenerationAsked() {
        for (int i = 0; i < 10; i++) {
            Frame put = cluster.call(0, Frame.request(Opcode.INSERT, 1, new InsertRequest(new byte[] {0x10,
                    (byte) i}, new byte[] {1}).encode())).join();
            assertThat(Responses.status(put.body())).isEqualTo(Status.OK);
        }
        byte[] first = new RangeSplitRequest(0, 1).encode();
        assertRefused(ask(1, first), "does not split range 0 of generation 1: it is range [-inf, 0x80) of "
                + "generation 1 owned by d1");
        Frame split = ask(0, first);
        assertThat(Responses.status(split.body())).isEqualTo(Status.OK);
        SplitResult halves = SplitResult.fromJson(Responses.parseBytes(split.body()));
        assertThat(halves.left().id()).isZero();
        assertThat(halves.right().lowHex()).isEqualTo("1005");
        assertThat(meta().ranges()).hasSize(3);
        assertRefused(ask(0, first), "it is range [-inf, 0x1005) of generation 2");
        assertRefused(ask(1, new RangeSplitRequest(1, 1).encode()), "range 1 [0x80, +inf) holds fewer than two "
                + "streams on d2: it has no halves");
        assertRefused(ask(0, new RangeSplitRequest(9, 1).encode()), "there is no such range");
        assertThat(Responses.status(ask(0, new byte[3]).body())).isEqualTo(Status.MALFORMED);
        assertThat(meta().ranges()).as("nothing more was split").hasSize(3);
        assertThat(cluster.node(0).store().count()).isEqualTo(10);

        Frame atKey = ask(0, new RangeSplitRequest(0, 2, new byte[] {0x10, 2}).encode());
        assertThat(Responses.status(atKey.body())).as("a key asked is where it splits").isEqualTo(Status.OK);
        assertThat(SplitResult.fromJson(Responses.parseBytes(atKey.body())).right().lowHex()).isEqualTo("1002");
        assertThat(RangeSplitRequest.decode(new RangeSplitRequest(0, 2).encode()).at()).as("no key: the middle")
                .isNull();
    }

    private void assertRefused(Frame answer, String message) {
        long version = meta().version();
        assertThat(Responses.status(answer.body())).isEqualTo(Status.INVALID_ARGUMENT);
        assertThat(Responses.errorMessage(answer.body())).contains(message).endsWith("nothing was split");
        assertThat(meta().version()).isEqualTo(version);
    }
}
