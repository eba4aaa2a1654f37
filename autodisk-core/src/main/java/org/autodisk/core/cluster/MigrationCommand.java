package org.autodisk.core.cluster;

/**
 * What an administrator asks of migrations (MIGRATE): start one, or pause, resume, re-throttle or abort one.
 *
 * @param action    {@code start}, {@code host-start} (the host copies the streams itself: the host-driven baseline),
 *                  {@code backup-start} (fill a backup copy of a range that has none on the target),
 *                  {@code pause}, {@code resume}, {@code rate} or {@code abort}
 * @param id        the migration (all but {@code start})
 * @param rangeId   start: the range to move, or {@code null} to name it by {@code key}
 * @param key       start: a key of the range to move (hex), when {@code rangeId} is {@code null}
 * @param target    start: the data node it moves to
 * @param splitAt   start: split the range at this key first (hex) and move the part from it on; {@code null}: none
 * @param rateBytes start and rate: the throttle in bytes/s (0: unthrottled); {@code null} at start: the target's
 *                  default ({@code migration.rate-bytes})
 */
public record MigrationCommand(String action, Long id, Integer rangeId, String key, String target, String splitAt,
        Long rateBytes) {

    /**
     * Starts moving a range.
     *
     * @param rangeId   the range
     * @param target    the data node it moves to
     * @param rateBytes bytes/s, 0 for unthrottled, {@code null} for the default
     * @return the command
     */
    public static MigrationCommand start(int rangeId, String target, Long rateBytes) {
        return new MigrationCommand("start", null, rangeId, null, target, null, rateBytes);
    }

    /**
     * Starts a host-driven move of a range: the target takes the streams the host copies to it (MIGRATION_WRITE)
     * instead of pulling them from the source, then catches up and cuts over as in any migration.
     *
     * @param rangeId the range
     * @param target  the data node it moves to
     * @return the command
     */
    public static MigrationCommand startByHost(int rangeId, String target) {
        return new MigrationCommand("host-start", null, rangeId, null, target, null, 0L);
    }

    /**
     * Starts filling a backup of a range that has none: the target copies the range's snapshot into its backup copy
     * and catches up from the range's ledgers, and becomes the range's backup; the owner stays and serves throughout.
     *
     * @param rangeId   the range
     * @param target    the data node that becomes its backup
     * @param rateBytes bytes/s, 0 for unthrottled, {@code null} for the default
     * @return the command
     */
    public static MigrationCommand startBackup(int rangeId, String target, Long rateBytes) {
        return new MigrationCommand("backup-start", null, rangeId, null, target, null, rateBytes);
    }

    /**
     * Starts moving the range holding a key, or its part from a split key on.
     *
     * @param keyHex     a key of the range, as hex
     * @param target     the data node it moves to
     * @param splitAtHex split there first (hex), or {@code null}
     * @param rateBytes  bytes/s, 0 for unthrottled, {@code null} for the default
     * @return the command
     */
    public static MigrationCommand startByKey(String keyHex, String target, String splitAtHex, Long rateBytes) {
        return new MigrationCommand("start", null, null, keyHex, target, splitAtHex, rateBytes);
    }

    /**
     * Pauses, resumes or aborts a migration.
     *
     * @param action {@code pause}, {@code resume} or {@code abort}
     * @param id     the migration
     * @return the command
     */
    public static MigrationCommand control(String action, long id) {
        return new MigrationCommand(action, id, null, null, null, null, null);
    }

    /**
     * Changes a migration's throttle.
     *
     * @param id        the migration
     * @param rateBytes bytes/s, 0 for unthrottled
     * @return the command
     */
    public static MigrationCommand rate(long id, long rateBytes) {
        return new MigrationCommand("rate", id, null, null, null, null, rateBytes);
    }

    /**
     * Encodes as JSON.
     *
     * @return UTF-8 JSON
     */
    public byte[] toJson() {
        return ClusterStatus.write(this);
    }

    /**
     * Decodes from JSON.
     *
     * @param json UTF-8 JSON
     * @return the command
     */
    public static MigrationCommand fromJson(byte[] json) {
        return ClusterStatus.read(json, MigrationCommand.class);
    }
}
