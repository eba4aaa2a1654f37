package org.autodisk.node.wire;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The LEDGER_APPLY answer carries the answering node's metadata version; one from a node before that reads as 0. */
class PeerResponsesTest {

    @Test
    void aHeldAnswerCarriesTheMetadataVersionAndAnOlderAnswerReadsAsVersionZero() {
        assertThat(PeerResponses.parseHeld(PeerResponses.held(40, 30, 12))).containsExactly(40, 30, 12);
        assertThat(PeerResponses.parseHeld(PeerResponses.lsnPair(40, 30))).as("a node of an earlier build")
                .containsExactly(40, 30, 0);
        assertThat(PeerResponses.parseLsnPair(PeerResponses.held(40, 30, 12))).as("read by an earlier build")
                .containsExactly(40, 30);
    }
}
