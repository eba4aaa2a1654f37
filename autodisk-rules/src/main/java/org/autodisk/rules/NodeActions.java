package org.autodisk.rules;

/**
 * What rules may make a node do besides deciding the request at hand (which they do through the global
 * {@code verdict}); the node implements it and the engine hands it to rules as the global {@code actions}.
 * Implementations must be thread-safe and must not block: queue the work and return.
 */
public interface NodeActions {

    /** Actions that do nothing (a node without side effects, or a test). */
    NodeActions NONE = new NodeActions() { };

    /**
     * Starts replaying a stream's log into its backup.
     *
     * @param stream the stream (range)
     */
    default void catchUp(String stream) {
    }

    /**
     * Splits a range this node owns at its middle stream: both halves stay here, no data moves.
     *
     * @param rangeId the range
     */
    default void split(int rangeId) {
    }

    /**
     * Starts moving a range to another node.
     *
     * @param rangeId the range
     * @param target the new owner
     */
    default void startMigration(int rangeId, String target) {
        startMigration(rangeId, target, "");
    }

    /**
     * Starts moving a range to another node, saying why (shown by {@code balance --dry-run} and logged).
     *
     * @param rangeId the range
     * @param target  the new owner
     * @param reason  why it should move
     */
    default void startMigration(int rangeId, String target, String reason) {
    }

    /**
     * Starts moving the upper half of a range to another node: its owner splits it at its middle stream first (one
     * committed split), then the right half moves like any range. For a node that should get data when no node has a
     * range to spare (a new data node in a cluster of one range per node).
     *
     * @param rangeId the range
     * @param target  the new owner of its upper half
     * @param reason  why it should move
     */
    default void startMigrationOfUpperHalf(int rangeId, String target, String reason) {
    }

    /**
     * Fills a backup copy of a range that has none on another data node: its owner streams a snapshot to the node,
     * which catches up from the range's ledgers and is then the range's backup (one committed change). The range's
     * owner stays.
     *
     * @param rangeId the range
     * @param target  the data node that gets the copy (not the owner)
     * @param reason  why
     */
    default void startBackupFill(int rangeId, String target, String reason) {
    }

    /**
     * Moves a range's backup to another data node (off a full disk, say): a backup fill of the target, as
     * {@link #startBackupFill} does, that takes the place of the backup {@code from} once caught up; {@code from} backs
     * the range up until then and drops its copy after. Refused (nothing changes) if {@code from} is no longer the
     * range's backup when the move is committed.
     *
     * @param rangeId the range
     * @param from    its backup now
     * @param target  the data node that gets the copy (not the owner)
     * @param reason  why
     */
    default void startBackupMove(int rangeId, String from, String target, String reason) {
    }

    /**
     * Fails a failed owner's range over to its backup: one committed promotion (epoch + 1); the backup takes the range
     * over from its copy, recovers the old owner's ledger and serves once the old owner's lease ran out.
     *
     * @param rangeId the range
     * @param reason  why, for the logs
     */
    default void promote(int rangeId, String reason) {
    }

    /**
     * Takes a failed data node off a range's backups, so that a backup fill gives the range another.
     *
     * @param rangeId the range
     * @param nodeId  the failed backup
     * @param reason  why, for the logs
     */
    default void dropBackup(int rangeId, String nodeId, String reason) {
    }

    /**
     * Holds back the failover of a failed node for this check (planned maintenance, a delay): nothing the rules asked
     * for it in the same evaluation is done, whichever rule fired first. The next failure check asks again.
     *
     * @param nodeId the failed node
     * @param reason why, for the logs
     */
    default void holdFailover(String nodeId, String reason) {
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
