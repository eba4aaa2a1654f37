package org.autodisk.node.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.Hello;
import org.autodisk.core.protocol.KeyValue;
import org.autodisk.core.protocol.Opcode;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.AutoDiskNode;
import org.autodisk.node.MiniCluster;
import org.autodisk.node.ledger.LedgerStore;
import org.autodisk.node.store.LocalStore;
import org.autodisk.node.wire.LedgerAppendRequest;
import org.autodisk.node.wire.LedgerApplyRequest;
import org.autodisk.node.wire.LedgerReadRequest;
import org.autodisk.node.wire.LedgerWire;
import org.autodisk.node.wire.LogRecord;
import org.autodisk.node.wire.NodeAuth;
import org.autodisk.node.wire.PeerOp;
import org.autodisk.node.wire.RulesPhase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A connection whose HELLO said client may send no node-to-node operation: each is refused with NOT_PERMITTED
 * from its header, the connection goes on, and no store, backup copy or log changes - also when the operation
 * comes in the same packet as the HELLO, before the handshake could close the gate.
 */
class PeerBoundaryTest {

    private static MiniCluster cluster;

    @BeforeAll
    static void start() {
        // no catch-up: nothing changes the backup copies or truncates the log but the operations under test
        cluster = MiniCluster.start(2, 1, null, Map.of("wal.catch-up-threshold", 1_000_000_000,
                "wal.catch-up-idle-ms", 3_600_000));
        try (AutoDiskClient client = AutoDiskClient.builder().seeds(cluster.address(0)).build()) {
            for (int i = 0; i < 40; i++) {
                client.insert(new byte[] {(byte) (i * 6), 'k'}, ("v" + i).getBytes(StandardCharsets.UTF_8));
            }
        }
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    /** Bodies that a node would act on if it came from a node: records into d1's log, a page into a backup. */
    private static Map<PeerOp, byte[]> validBodies() {
        Map<PeerOp, byte[]> bodies = new LinkedHashMap<>();
        bodies.put(PeerOp.NODE_INFO, new byte[0]);
        bodies.put(PeerOp.RULES_PHASE, new RulesPhase(RulesPhase.Phase.COMMIT, 1).encode());
        bodies.put(PeerOp.NODE_AUTH, NodeAuth.nonce());
        bodies.put(PeerOp.LEDGER_APPEND, new LedgerAppendRequest(1, 1, false, 0, List.of(
                new LogRecord(0, 1, 1, LogRecord.PUT, bytes("forged"), bytes("evil")))).encode());
        bodies.put(PeerOp.LEDGER_FENCE, LedgerWire.fence(1));
        bodies.put(PeerOp.LEDGER_READ, new LedgerReadRequest(1, 1, 100).encode());
        bodies.put(PeerOp.LEDGER_APPLY, new LedgerApplyRequest(1, 1, false, List.of(
                new LogRecord(0, 1, 1, LogRecord.PUT, bytes("forged"), bytes("evil")))).encode());
        return bodies;
    }

    @Test
    void everyPeerOperationOnAClientConnectionIsRefusedAndChangesNothing() throws Exception {
        String before = snapshot();
        for (int node : new int[] {0, 2}) {
            try (RawConnection c = RawConnection.handshaken(cluster.address(node))) {
                long id = 100;
                for (Map.Entry<PeerOp, byte[]> e : validBodies().entrySet()) {
                    c.send(e.getKey().request(e.getValue()).withIdAndBody(++id, e.getValue()));
                    assertRefused(c.read(), e.getKey(), id, cluster.id(node));
                }
                c.send(Frame.request(Opcode.STATUS, ++id, new byte[0]));
                assertThat(Responses.status(c.read().body())).as("the connection goes on").isEqualTo(Status.OK);
            }
        }
        assertThat(snapshot()).isEqualTo(before);
    }

    @Test
    void aPeerOperationSentInThePacketOfTheHelloIsRefusedToo() throws Exception {
        String before = snapshot();
        for (Map.Entry<PeerOp, byte[]> e : validBodies().entrySet()) {
            try (RawConnection c = new RawConnection(cluster.address(2))) {
                ByteArrayOutputStream packet = new ByteArrayOutputStream();
                packet.writeBytes(RawConnection.wire(Frame.request(Opcode.HELLO, 1,
                        Hello.of(Hello.PeerKind.CLIENT, "sneaky").encode())));
                packet.writeBytes(RawConnection.wire(e.getKey().request(e.getValue()).withIdAndBody(2, e.getValue())));
                c.writeRaw(packet.toByteArray());
                assertThat(Responses.status(c.read().body())).isEqualTo(Status.OK);
                assertRefused(c.read(), e.getKey(), 2, "l1");
            }
        }
        assertThat(snapshot()).isEqualTo(before);
    }

    private static void assertRefused(Frame reply, PeerOp op, long id, String node) {
        assertThat(reply.requestId()).isEqualTo(id);
        assertThat(reply.opcode()).isEqualTo(op.code());
        assertThat(Responses.status(reply.body())).as(op.name()).isEqualTo(Status.NOT_PERMITTED);
        assertThat(Responses.errorMessage(reply.body())).isEqualTo(op.name() + " is a node-to-node operation: node "
                + node + " refuses it on a connection whose HELLO said client");
    }

    /** Everything the peer operations could change: stores, backup copies and logs. */
    private static String snapshot() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 2; i++) {
            AutoDiskNode n = cluster.node(i);
            b.append(n.id()).append(" store ").append(contents(n.store())).append('\n');
            LocalStore copy = n.backups().opened() ? n.backups().copy() : null;
            if (copy != null && (copy.appliedEntry(1) > 0 || copy.count() > 0)) { // opened empty by a question
                b.append(n.id()).append(" backup copy applied ").append(copy.appliedEntry(1)).append(' ')
                        .append(contents(copy)).append('\n');
            }
        }
        LedgerStore ledgers = cluster.node(2).log().ledgers().store();
        b.append("l1 ledger 1 last ").append(ledgers.lastEntry(1)).append(" fenced ").append(ledgers.fenced(1))
                .append('\n');
        return b.toString();
    }

    private static List<String> contents(LocalStore store) {
        List<String> out = new ArrayList<>();
        for (KeyValue kv : store.scan(new byte[0], null, 100_000, Long.MAX_VALUE).entries()) {
            out.add(new String(kv.key(), StandardCharsets.ISO_8859_1) + "="
                    + new String(kv.value(), StandardCharsets.UTF_8));
        }
        return out;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
