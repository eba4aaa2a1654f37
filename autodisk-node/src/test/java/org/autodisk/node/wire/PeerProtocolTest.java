package org.autodisk.node.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.autodisk.node.wire.WireTestSupport.assertMalformed;

import java.nio.charset.StandardCharsets;
import org.autodisk.core.protocol.Opcode;
import org.junit.jupiter.api.Test;

class PeerProtocolTest {

    private static final String SECRET = "0123456789abcdef0123456789abcdef";

    @Test
    void peerOpcodesLieAboveEveryClientOpcodeAndAreUnknownToTheClientsTable() {
        for (PeerOp op : PeerOp.values()) {
            assertThat(op.code()).isGreaterThanOrEqualTo(Opcode.FIRST_PEER_CODE);
            assertThat(Opcode.fromCode(op.code())).as(op.name()).isNull();
            assertThat(PeerOp.fromCode(op.code())).isEqualTo(op);
            assertThat(PeerOp.describe(op.code())).isEqualTo(op.name());
        }
        for (Opcode op : Opcode.values()) {
            assertThat(op.code()).isLessThan(Opcode.FIRST_PEER_CODE);
            assertThat(PeerOp.describe(op.code())).isEqualTo(op.name());
        }
    }

    @Test
    void rulesPhaseRoundTripsAndRefusesUnknownPhases() {
        for (RulesPhase.Phase phase : RulesPhase.Phase.values()) {
            RulesPhase p = new RulesPhase(phase, 0x0102030405060708L);
            assertThat(RulesPhase.decode(p.encode())).isEqualTo(p);
        }
        byte[] body = new RulesPhase(RulesPhase.Phase.ABORT, 1).encode();
        body[0] = 3;
        assertMalformed(() -> RulesPhase.decode(body), "phase 3 is unknown");
        assertMalformed(() -> RulesPhase.decode(new byte[] {0}), "rules reload token");
    }

    @Test
    void aProofChecksOnlyWithTheSameSecretNoncesIdsAndSide() {
        NodeAuth auth = NodeAuth.of(SECRET);
        byte[] a = NodeAuth.nonce();
        byte[] b = NodeAuth.nonce();
        byte[] proof = auth.prove(NodeAuth.Side.HELLO, a, b, "d1", "d2");

        assertThat(proof).hasSize(NodeAuth.BYTES);
        assertThat(auth.verify(proof, NodeAuth.Side.HELLO, a, b, "d1", "d2")).isTrue();
        assertThat(NodeAuth.of(SECRET.replace('0', 'x')).verify(proof, NodeAuth.Side.HELLO, a, b, "d1", "d2"))
                .as("another secret").isFalse();
        assertThat(auth.verify(proof, NodeAuth.Side.ANSWER, a, b, "d1", "d2")).as("reflected as an answer").isFalse();
        assertThat(auth.verify(proof, NodeAuth.Side.HELLO, a, NodeAuth.nonce(), "d1", "d2")).as("replayed").isFalse();
        assertThat(auth.verify(proof, NodeAuth.Side.HELLO, a, b, "d3", "d2")).as("another claimant").isFalse();
        assertThat(auth.verify(new byte[3], NodeAuth.Side.HELLO, a, b, "d1", "d2")).isFalse();
        assertThat(NodeAuth.nonce()).isNotEqualTo(NodeAuth.nonce());
    }

    @Test
    void aShortSecretIsRefused() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new NodeAuth("short".getBytes(
                StandardCharsets.UTF_8))).hasMessageContaining("at least 16");
    }
}
