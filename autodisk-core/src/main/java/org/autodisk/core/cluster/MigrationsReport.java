package org.autodisk.core.cluster;

import java.util.List;

/**
 * The migrations under way, as {@code migrations} prints them.
 *
 * @param reportedBy the node asked
 * @param version    the metadata version they come from
 * @param migrations the migrations, by id
 */
public record MigrationsReport(String reportedBy, long version, List<MigrationStatus> migrations) {

    /** Copies the list. */
    public MigrationsReport {
        migrations = List.copyOf(migrations);
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
     * @return the report
     */
    public static MigrationsReport fromJson(byte[] json) {
        return ClusterStatus.read(json, MigrationsReport.class);
    }
}
