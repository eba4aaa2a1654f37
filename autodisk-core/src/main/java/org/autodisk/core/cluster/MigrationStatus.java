package org.autodisk.core.cluster;

/**
 * One migration under way, as the metadata records it.
 *
 * @param id          the migration
 * @param rangeId     the range moving
 * @param span        its span, e.g. {@code [0x10, 0x20)}
 * @param source      its owner when the migration started
 * @param target      the data node it moves to
 * @param phase       {@code copying}, {@code catching up} or {@code cleaning up}
 * @param paused      whether an administrator paused it
 * @param rateBytes   its throttle in bytes/s (0: unthrottled)
 * @param keysCopied  streams copied, as last recorded
 * @param bytesCopied bytes of keys and values copied, as last recorded
 * @param rangeBytes  the bytes the range holds on its owner (-1 if unknown), for an estimate of what is left
 * @param startedBy   {@code admin} or {@code rules}
 * @param backup      true for a backup fill: the target gets a backup copy of the range, its owner stays
 * @param replaces    for a backup fill, the backup the target takes the place of ({@code null}: none)
 */
public record MigrationStatus(long id, int rangeId, String span, String source, String target, String phase,
        boolean paused, long rateBytes, long keysCopied, long bytesCopied, long rangeBytes, String startedBy,
        boolean backup, String replaces) {

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
     * @return the status
     */
    public static MigrationStatus fromJson(byte[] json) {
        return ClusterStatus.read(json, MigrationStatus.class);
    }
}
