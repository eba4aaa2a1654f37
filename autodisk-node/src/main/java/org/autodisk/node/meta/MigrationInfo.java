package org.autodisk.node.meta;

/**
 * One migration of a range in the metadata, from its start to its end (then it is removed): what moves where, how far
 * it got (so that a restarted source or target resumes instead of starting over), and how it is throttled.
 *
 * @param id          the migration's id (never reused)
 * @param rangeId     the range that moves
 * @param source      its owner when the migration started
 * @param target      the data node it moves to
 * @param fromEpoch   the range's epoch when the migration started: the cutover commits only at this epoch
 * @param phase       where it is
 * @param paused      whether an administrator paused it (copying and catching up wait; nothing is lost)
 * @param rateBytes   the throttle in bytes per second (0: unthrottled; {@link #DEFAULT_RATE}: the target's default)
 * @param keysCopied  keys copied so far, as last reported
 * @param bytesCopied bytes copied so far, as last reported
 * @param resumeAfter the last key the target holds durably from the snapshot, hex ({@code ""}: none yet)
 * @param startedBy   who decided it ({@code rules} or {@code admin})
 * @param backup      true for a backup fill: the target's backup copy is filled by the same copy and catch-up, and
 *                    the migration ends with the target as the range's backup instead of a cutover
 * @param copyRun     the target's copy run that holds the copy (0: none yet): each run of the target's copy claims the
 *                    next number first, and a progress record of any other run is refused, so that a run that lost
 *                    track (a stale view, a record still in flight when it failed) can never move the resume key
 *                    past what the store holds
 * @param replaces    for a backup fill, the backup the target takes the place of ({@code null}: the range had none)
 */
public record MigrationInfo(long id, int rangeId, String source, String target, long fromEpoch, MigrationPhase phase,
        boolean paused, long rateBytes, long keysCopied, long bytesCopied, String resumeAfter, String startedBy,
        boolean backup, long copyRun, String replaces) {

    /** A rate that means: the target's {@code migration.rate-bytes}. */
    public static final long DEFAULT_RATE = -1;

    /** Checks the fields. */
    public MigrationInfo {
        if (phase == null) {
            throw new IllegalArgumentException("a migration needs a phase");
        }
        resumeAfter = resumeAfter == null ? "" : resumeAfter;
    }

    /**
     * Returns this migration in another phase, with the progress reported.
     *
     * @param next  the phase
     * @param keys  keys copied
     * @param bytes bytes copied
     * @param after the last key held, hex
     * @return the migration
     */
    MigrationInfo progressed(MigrationPhase next, long keys, long bytes, String after) {
        return new MigrationInfo(id, rangeId, source, target, fromEpoch, next, paused, rateBytes, keys, bytes, after,
                startedBy, backup, copyRun, replaces);
    }

    /**
     * Returns this migration's copy held by another run of its target.
     *
     * @param run the run
     * @return the migration
     */
    MigrationInfo claimed(long run) {
        return new MigrationInfo(id, rangeId, source, target, fromEpoch, phase, paused, rateBytes, keysCopied,
                bytesCopied, resumeAfter, startedBy, backup, run, replaces);
    }

    /**
     * Returns this migration paused or resumed, with a throttle.
     *
     * @param pause whether paused
     * @param rate  bytes per second (0: unthrottled)
     * @return the migration
     */
    MigrationInfo controlled(boolean pause, long rate) {
        return new MigrationInfo(id, rangeId, source, target, fromEpoch, phase, pause, rate, keysCopied, bytesCopied,
                resumeAfter, startedBy, backup, copyRun, replaces);
    }
}
