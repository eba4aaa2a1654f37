package org.autodisk.rules;

/**
 * What rules may make a node do; the node implements it and the engine hands it to rules as the global
 * {@code actions}. Implementations must be thread-safe and must not block: queue the work and return.
 */
public interface NodeActions {

    /** Actions that do nothing (a node without side effects, or a test). */
    NodeActions NONE = new NodeActions() { };

    /**
     * Forwards a request to the owner of its key.
     *
     * @param requestId the request's handle
     */
    default void forward(String requestId) {
    }

    /**
     * Ships the request's log record to log nodes.
     *
     * @param requestId the request's handle
     * @param multiplicity how many log nodes must acknowledge the record
     */
    default void shipLog(String requestId, int multiplicity) {
    }

    /**
     * Applies the request to the local store.
     *
     * @param requestId the request's handle
     */
    default void storeLocal(String requestId) {
    }

    /**
     * Answers the client.
     *
     * @param requestId the request's handle
     * @param status a short status text
     */
    default void reply(String requestId, String status) {
    }

    /**
     * Refuses a request.
     *
     * @param requestId the request's handle
     * @param reason why, for the client
     */
    default void refuse(String requestId, String reason) {
    }

    /**
     * Starts replaying a stream's log into its backup.
     *
     * @param stream the stream (range)
     */
    default void catchUp(String stream) {
    }

    /**
     * Starts moving a range to another node.
     *
     * @param rangeId the range
     * @param target the new owner
     */
    default void startMigration(int rangeId, String target) {
    }

    /**
     * Raises an alert for the operator (log line, metric, status).
     *
     * @param rule the rule that raised it
     * @param message what happened
     */
    default void alert(String rule, String message) {
    }
}
