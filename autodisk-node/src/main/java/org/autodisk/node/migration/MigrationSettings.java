package org.autodisk.node.migration;

import java.time.Duration;
import org.autodisk.node.config.NodeConfig;
import org.autodisk.node.config.NodeConfigKeys;

/**
 * How a data node runs migrations.
 *
 * @param rateBytes       default throttle in bytes/s (0: unthrottled), for migrations started without one
 * @param chunkBytes      bytes per chunk the target asks for
 * @param maxConcurrent   migrations copied at once as target
 * @param cutoverLag      the target cuts over once a catch-up round applied at most this many entries
 * @param metadataTimeout how long a metadata change may take
 * @param answerTimeout   how long a peer may take to answer
 * @param bulkLoad        whether the target ingests what it copies as SST files
 */
public record MigrationSettings(long rateBytes, int chunkBytes, int maxConcurrent, int cutoverLag,
        Duration metadataTimeout, Duration answerTimeout, boolean bulkLoad) {

    /**
     * Reads the settings from a node's configuration.
     *
     * @param config the configuration
     * @return the settings
     */
    public static MigrationSettings of(NodeConfig config) {
        return new MigrationSettings(config.get(NodeConfigKeys.MIGRATION_RATE_BYTES),
                Math.min(config.get(NodeConfigKeys.MIGRATION_CHUNK_BYTES), config.limits().maxValueBytes()),
                config.get(NodeConfigKeys.MIGRATION_MAX_CONCURRENT), config.get(NodeConfigKeys.MIGRATION_CUTOVER_LAG),
                Duration.ofMillis(config.get(NodeConfigKeys.METADATA_TIMEOUT_MS)),
                Duration.ofMillis(config.get(NodeConfigKeys.FORWARD_TIMEOUT_MS)),
                config.get(NodeConfigKeys.MIGRATION_BULK_LOAD));
    }
}
