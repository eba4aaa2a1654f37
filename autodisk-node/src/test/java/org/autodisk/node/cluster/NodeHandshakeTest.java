package org.autodisk.node.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.Arrays;
import java.util.Map;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.client.NodeUnavailableException;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.Hello;
import org.autodisk.core.protocol.Opcode;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.MiniCluster;
import org.autodisk.node.wire.NodeAuth;
import org.autodisk.node.wire.PeerOp;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Saying HELLO as a node is not enough: the node must prove by challenge and response that it knows the cluster
 * secret, and the node it connects to proves the same in its answer. A missing, wrong or replayed proof, or a
 * node that is no member, is refused with NOT_PERMITTED, disconnected and logged with who tried.
 */
class NodeHandshakeTest {

    private static final byte[] SECRET_BYTES = MiniCluster.SECRET.getBytes(java.nio.charset.StandardCharsets.UTF_8);

    private MiniCluster cluster;
    private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
    private final Logger handshakeLog = (Logger) LoggerFactory.getLogger(
            "org.autodisk.node.server.HandshakeHandler");

    @BeforeEach
    void start() {
        cluster = MiniCluster.start(2, null, Map.of());
        logs.start();
        handshakeLog.addAppender(logs);
    }

    @AfterEach
    void stop() {
        handshakeLog.detachAppender(logs);
        cluster.close();
    }

    private static Frame nodeHello(String id, byte[] extension) {
        return Frame.request(Opcode.HELLO, 1, new Hello(Frame.PROTOCOL_VERSION, Hello.PeerKind.NODE, id, extension)
                .encode());
    }

    @Test
    void aNodeWithTheSecretIsAcceptedAndTheAnswerProvesTheOtherSideKnowsItToo() throws Exception {
        byte[] helloNonce = NodeAuth.nonce();
        try (RawConnection c = new RawConnection(cluster.address(0))) {
            c.send(nodeHello("d2", helloNonce));
            byte[] answer = c.read().body();
            assertThat(Responses.status(answer)).isEqualTo(Status.OK);
            byte[] ext = Hello.answerExtension(answer);
            byte[] answerNonce = Arrays.copyOf(ext, NodeAuth.BYTES);
            byte[] proof = Arrays.copyOfRange(ext, NodeAuth.BYTES, ext.length);
            NodeAuth auth = new NodeAuth(SECRET_BYTES);
            assertThat(auth.verify(proof, NodeAuth.Side.ANSWER, helloNonce, answerNonce, "d2", "d1")).isTrue();
            c.send(PeerOp.NODE_AUTH.request(auth.prove(NodeAuth.Side.HELLO, helloNonce, answerNonce, "d2", "d1"))
                    .withIdAndBody(2, auth.prove(NodeAuth.Side.HELLO, helloNonce, answerNonce, "d2", "d1")));
            assertThat(Responses.status(c.read().body())).isEqualTo(Status.OK);
            c.send(PeerOp.NODE_INFO.request(new byte[0]).withIdAndBody(3, new byte[0]));
            assertThat(Responses.status(c.read().body())).as("a node may use the peer protocol").isEqualTo(Status.OK);
        }
    }

    @Test
    void aWrongProofIsRefusedDisconnectedAndLogged() throws Exception {
        byte[] helloNonce = NodeAuth.nonce();
        try (RawConnection c = new RawConnection(cluster.address(0))) {
            c.send(nodeHello("d2", helloNonce));
            byte[] answerNonce = Arrays.copyOf(Hello.answerExtension(c.read().body()), NodeAuth.BYTES);
            byte[] wrong = NodeAuth.of("another-secret-of-some-length").prove(NodeAuth.Side.HELLO, helloNonce,
                    answerNonce, "d2", "d1");
            c.send(PeerOp.NODE_AUTH.request(wrong).withIdAndBody(2, wrong));
            assertNotPermitted(c.read(), "node 'd2' gave a wrong proof of cluster membership");
            assertThat(c.closedByPeer()).isTrue();
        }
        assertThat(warnings()).anySatisfy(w -> assertThat(w).contains("d1: refused a node handshake from /127.0.0.1:",
                "claiming to be 'd2'", "wrong proof"));
    }

    @Test
    void aProofRecordedOnAnotherConnectionIsWorthNothing() throws Exception {
        byte[] helloNonce = NodeAuth.nonce();
        byte[] recorded;
        NodeAuth auth = new NodeAuth(SECRET_BYTES);
        try (RawConnection c = new RawConnection(cluster.address(0))) {
            c.send(nodeHello("d2", helloNonce));
            byte[] answerNonce = Arrays.copyOf(Hello.answerExtension(c.read().body()), NodeAuth.BYTES);
            recorded = auth.prove(NodeAuth.Side.HELLO, helloNonce, answerNonce, "d2", "d1");
        }
        try (RawConnection c = new RawConnection(cluster.address(0))) {
            c.send(nodeHello("d2", helloNonce));
            c.read();
            c.send(PeerOp.NODE_AUTH.request(recorded).withIdAndBody(2, recorded));
            assertNotPermitted(c.read(), "wrong proof");
        }
    }

    @Test
    void helloAsANodeWithoutProofOrFromAStrangerIsRefused() throws Exception {
        try (RawConnection c = new RawConnection(cluster.address(0))) {
            c.send(nodeHello("d2", new byte[0]));
            assertNotPermitted(c.read(), "node 'd2' sent no proof of cluster membership");
            assertThat(c.closedByPeer()).isTrue();
        }
        try (RawConnection c = new RawConnection(cluster.address(0))) {
            c.send(nodeHello("d9", NodeAuth.nonce()));
            assertNotPermitted(c.read(), "'d9' is not a node of this cluster");
        }
        try (RawConnection c = new RawConnection(cluster.address(0))) {
            c.send(nodeHello("d2", NodeAuth.nonce()));
            c.read();
            c.send(PeerOp.NODE_INFO.request(new byte[0]).withIdAndBody(2, new byte[0]));
            assertNotPermitted(c.read(), "sent NODE_INFO instead of its proof");
        }
        assertThat(warnings()).hasSize(3);
    }

    @Test
    void aNodeWithAnotherSecretCannotBeReachedAndTheErrorSaysWhy() {
        cluster.stopNode(1);
        cluster.startNode(1, Map.of("cluster.secret", "a-different-secret-of-d2"), b -> { });
        AutoDiskClient viaD1 = cluster.impatientClientOf(0);
        byte[] d2Key = {(byte) 0xF0};
        assertThatThrownBy(() -> viaD1.insert(d2Key, new byte[] {1}))
                .isInstanceOf(NodeUnavailableException.class)
                .hasMessageContaining("node d2 at 127.0.0.1:")
                .hasMessageContaining("could not prove it belongs to the cluster (its cluster.secret differs)");
    }

    private static void assertNotPermitted(Frame reply, String message) {
        assertThat(Responses.status(reply.body())).isEqualTo(Status.NOT_PERMITTED);
        assertThat(Responses.errorMessage(reply.body())).contains(message);
    }

    private java.util.List<String> warnings() {
        return logs.list.stream().filter(e -> e.getLevel() == Level.WARN).map(ILoggingEvent::getFormattedMessage)
                .toList();
    }
}
