package org.autodisk.rules;

/**
 * The outcome of evaluating one event.
 *
 * @param decision what the rules decided for a request ({@link Decision#NONE} for other events or on failure)
 * @param firedRules how many rule activations fired
 * @param failedRule the rule that threw, or empty when none did
 * @param failure the failure's message, or empty when none occurred
 */
public record Evaluation(Decision decision, int firedRules, String failedRule, String failure) {

    /**
     * A successful evaluation.
     *
     * @param decision the decision
     * @param firedRules how many activations fired
     * @return the evaluation
     */
    public static Evaluation ok(Decision decision, int firedRules) {
        return new Evaluation(decision, firedRules, "", "");
    }

    /**
     * A failed evaluation.
     *
     * @param rule the rule that threw
     * @param message what it threw
     * @return the evaluation
     */
    public static Evaluation failed(String rule, String message) {
        return new Evaluation(Decision.NONE, 0, rule, message);
    }

    /**
     * Returns whether a rule threw while the event was evaluated.
     *
     * @return true on failure
     */
    public boolean isFailure() {
        return !failedRule.isEmpty();
    }
}
