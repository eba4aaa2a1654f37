package org.autodisk.core.cluster;

import java.util.HexFormat;
import java.util.List;

/**
 * One key range as the cluster metadata records it.
 *
 * @param id      range id
 * @param lowHex  lowest key of the range (inclusive), hex; empty for the start of the key space
 * @param highHex end of the range (exclusive), hex; {@code null} for the end of the key space
 * @param owner   node id of the primary
 * @param epoch   ownership epoch, bumped when the range moves
 * @param backup    node id holding the backup copy, {@code null} if none
 * @param logNodes  log nodes the owner ships this range's changes to (empty without log nodes)
 * @param backupLag ledger entries of the owner's ranges its backup lacks, -1 if unknown
 * @param generation split generation, bumped when the range splits
 * @param state     {@code serving}, {@code splitting}, {@code migrating} or {@code recovering}
 * @param keys      streams the owner holds in the range (approximate for large ranges), -1 if unknown
 * @param bytes     bytes of keys and values the owner holds in the range (approximate), -1 if unknown
 * @param requestsPerSecond stream requests the owner served for the range per second over its last complete
 *                  window of 10 s, -1 if unknown
 */
public record RangeStatus(int id, String lowHex, String highHex, String owner, long epoch, String backup,
        List<String> logNodes, long backupLag, long generation, String state, long keys, long bytes,
        Double requestsPerSecond) {

    /** Treats missing fields (JSON from an older node) as empty or unknown. */
    public RangeStatus {
        logNodes = logNodes == null ? List.of() : List.copyOf(logNodes);
        state = state == null ? "serving" : state;
        requestsPerSecond = requestsPerSecond == null ? -1.0 : requestsPerSecond;
    }

    /**
     * Creates a range without backup or log nodes.
     *
     * @param id      range id
     * @param lowHex  low bound, hex
     * @param highHex high bound, hex, or {@code null}
     * @param owner   owner
     * @param epoch   epoch
     */
    public RangeStatus(int id, String lowHex, String highHex, String owner, long epoch) {
        this(id, lowHex, highHex, owner, epoch, null, List.of(), -1, 1, "serving", -1, -1, -1.0);
    }

    /**
     * Returns the low bound as bytes.
     *
     * @return the inclusive low key (empty for the start of the key space)
     */
    public byte[] low() {
        return HexFormat.of().parseHex(lowHex);
    }

    /**
     * Returns the high bound as bytes.
     *
     * @return the exclusive high key, or {@code null} for the end of the key space
     */
    public byte[] high() {
        return highHex == null ? null : HexFormat.of().parseHex(highHex);
    }
}
