package org.autodisk.rules;

/**
 * A range of a failed node, as {@link NodeFailed} lists it.
 *
 * @param rangeId  the range
 * @param span     its key span, for messages
 * @param owner    its owner
 * @param backup   its first backup ({@code ""}: none)
 * @param backupUp whether that backup is up (a promotion needs it)
 * @param epoch    its epoch
 */
public record FailedRange(int rangeId, String span, String owner, String backup, boolean backupUp, long epoch) {

    /**
     * Tells whether the range can be promoted to its backup.
     *
     * @return true if it has a backup that is up
     */
    public boolean promotable() {
        return !backup.isEmpty() && backupUp;
    }
}
