package org.autodisk.node.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.InsertRequest;
import org.autodisk.core.protocol.KeyRequest;
import org.autodisk.core.protocol.Opcode;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.core.protocol.TraverseRequest;
import org.autodisk.node.InMemoryCluster;
import org.autodisk.node.wire.LedgerAppendRequest;
import org.autodisk.node.wire.LedgerApplyRequest;
import org.autodisk.node.wire.LedgerReadRequest;
import org.autodisk.node.wire.LedgerWire;
import org.autodisk.node.wire.PeerOp;
import org.junit.jupiter.api.Test;

/** Each role serves its own operations; the other role answers WRONG_ROLE naming the nodes that serve them. */
class RolesTest {

    private static final byte[] KEY = {'k'};

    @Test
    void aLogNodeServesNoStreamRequestAndSaysWhichNodesDo() throws Exception {
        try (InMemoryCluster c = new InMemoryCluster(2, 1, Map.of())) {
            List<Frame> streamRequests = List.of(
                    Frame.request(Opcode.INSERT, 1, new InsertRequest(KEY, KEY).encode()),
                    Frame.request(Opcode.SEARCH, 2, new KeyRequest(KEY).encode()),
                    Frame.request(Opcode.DELETE, 3, new KeyRequest(KEY).encode()),
                    Frame.request(Opcode.TRAVERSE, 4, new TraverseRequest(new byte[0], null, 10).encode()));
            for (Frame f : streamRequests) {
                Frame reply = c.call(2, f).join();
                assertThat(Responses.status(reply.body())).as(f.op().name()).isEqualTo(Status.WRONG_ROLE);
                assertThat(Responses.errorMessage(reply.body())).isEqualTo("node l1 is a log node and does not serve "
                        + f.op() + "; the data nodes do: d1 (127.0.0.1:20001), d2 (127.0.0.1:20002)");
            }
            Frame backup = PeerOp.LEDGER_APPLY.request(LedgerApplyRequest.question(1, false).encode());
            assertThat(Responses.errorMessage(c.call(2, backup, Caller.NODE).join().body()))
                    .startsWith("node l1 is a log node and does not serve LEDGER_APPLY");
            assertThat(c.node(1).store().count()).isZero();
        }
    }

    @Test
    void aDataNodeServesNoLogOperationAndSaysWhichNodesDo() throws Exception {
        try (InMemoryCluster c = new InMemoryCluster(2, 1, Map.of())) {
            Frame append = PeerOp.LEDGER_APPEND.request(new LedgerAppendRequest(1, 1, false, 0, List.of()).encode());
            Frame fence = PeerOp.LEDGER_FENCE.request(LedgerWire.fence(1));
            Frame read = PeerOp.LEDGER_READ.request(new LedgerReadRequest(1, 1, 10).encode());
            for (Frame f : List.of(append, fence, read)) {
                Frame reply = c.call(0, f, Caller.NODE).join();
                assertThat(Responses.status(reply.body())).isEqualTo(Status.WRONG_ROLE);
                assertThat(Responses.errorMessage(reply.body())).isEqualTo("node d1 is a data node and does not serve "
                        + PeerOp.describe(f.opcode()) + "; the log nodes do: l1 (127.0.0.1:21001)");
            }
        }
    }

    @Test
    void everyRoleAnswersStatusAndNodeInfo() throws Exception {
        try (InMemoryCluster c = new InMemoryCluster(1, 1, Map.of())) {
            for (int node = 0; node < 2; node++) {
                assertThat(Responses.status(c.call(node, Frame.request(Opcode.STATUS, 1, new byte[0])).join().body()))
                        .isEqualTo(Status.OK);
                assertThat(Responses.status(c.call(node, PeerOp.NODE_INFO.request(new byte[0]), Caller.NODE).join()
                        .body())).isEqualTo(Status.OK);
            }
        }
    }

    @Test
    void aNodeHasOnlyTheServicesOfItsRole() throws Exception {
        try (InMemoryCluster c = new InMemoryCluster(1, 1, Map.of())) {
            assertThat(c.node(0).store()).isNotNull();
            assertThatThrownBy(() -> c.node(0).log()).isInstanceOf(IllegalStateException.class)
                    .hasMessage("node d1 is a data node: it holds no ledgers");
            assertThatThrownBy(() -> c.node(1).store()).isInstanceOf(IllegalStateException.class)
                    .hasMessage("node l1 is a log node: it has no store, write-ahead log or backup copies");
        }
    }
}
