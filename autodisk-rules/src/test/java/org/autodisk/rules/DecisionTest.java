package org.autodisk.rules;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DecisionTest {

    @Test
    void verdictRefusalBeatsForwardingWhichBeatsLocalHandling() {
        Verdict verdict = new Verdict();
        verdict.handleLocally(1);
        verdict.handleLocally(3);
        verdict.handleLocally(2);
        assertThat(verdict.toDecision()).isEqualTo(Decision.handleLocally(3));
        verdict.forward();
        assertThat(verdict.toDecision()).isEqualTo(Decision.FORWARD);
        verdict.refuse("first");
        verdict.refuse("second");
        verdict.forward();
        assertThat(verdict.toDecision()).isEqualTo(Decision.refuse("first"));
        verdict.reset();
        assertThat(verdict.toDecision()).isEqualTo(Decision.NONE);
    }
}
