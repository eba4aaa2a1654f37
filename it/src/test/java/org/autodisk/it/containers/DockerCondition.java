package org.autodisk.it.containers;

import java.util.Optional;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.testcontainers.DockerClientFactory;

/**
 * The rule behind {@link RequiresDocker}: enabled when Docker answers; otherwise skipped locally and failed in
 * CI ({@code CI=true}).
 */
public final class DockerCondition implements ExecutionCondition, BeforeAllCallback {

    private static boolean checked;
    private static String unavailableReason;

    /**
     * Asks Testcontainers for a Docker client once per test run.
     *
     * @return why Docker cannot be used, or empty when it can
     */
    static synchronized Optional<String> dockerUnavailable() {
        if (!checked) {
            checked = true;
            try {
                DockerClientFactory.instance().client();
            } catch (RuntimeException | Error e) {
                unavailableReason = e.getClass().getSimpleName() + ": " + e.getMessage();
            }
        }
        return Optional.ofNullable(unavailableReason);
    }

    static boolean inCi() {
        return "true".equalsIgnoreCase(System.getenv("CI"));
    }

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        Optional<String> problem = dockerUnavailable();
        if (problem.isEmpty()) {
            return ConditionEvaluationResult.enabled("Docker is available");
        }
        if (inCi()) {
            return ConditionEvaluationResult.enabled("CI=true: runs (and fails) without Docker");
        }
        String message = "SKIPPED " + context.getDisplayName() + ": Docker is not available (" + problem.get()
                + "). Container suites need a Docker daemon; with CI=true they fail instead of skipping.";
        System.err.println("[container ITs] " + message);
        return ConditionEvaluationResult.disabled(message);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        dockerUnavailable().ifPresent(problem -> {
            throw new AssertionError("CI=true but Docker is not available (" + problem + "): the container suites "
                    + "must run in CI. .ci/run installs and starts Docker before the build; see its output.");
        });
    }
}
