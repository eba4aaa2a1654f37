package org.autodisk.rules;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DecisionTest {

    private final List<String> calls = new ArrayList<>();
    private final NodeActions actions = new NodeActions() {
        @Override
        public void forward(String requestId) {
            calls.add("forward " + requestId);
        }

        @Override
        public void shipLog(String requestId, int multiplicity) {
            calls.add("shipLog " + requestId + " " + multiplicity);
        }

        @Override
        public void storeLocal(String requestId) {
            calls.add("store " + requestId);
        }

        @Override
        public void refuse(String requestId, String reason) {
            calls.add("refuse " + requestId + " " + reason);
        }
    };

    @Test
    void applyToCarriesTheDecisionOut() {
        Decision.FORWARD.applyTo(new SearchRequested("s", "k", false, 0, 0), actions);
        Decision.handleLocally(2).applyTo(new InsertRequested("i", "k", 1, true, 0, 0), actions);
        Decision.handleLocally(1).applyTo(new SearchRequested("s2", "k", true, 0, 0), actions);
        Decision.refuse("no").applyTo(new DeleteRequested("d", "k", true, 0, 0), actions);
        Decision.NONE.applyTo(new DeleteRequested("d2", "k", true, 0, 0), actions);
        assertThat(calls).containsExactly("forward s", "shipLog i 2", "store i", "store s2", "refuse d no");
    }

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
