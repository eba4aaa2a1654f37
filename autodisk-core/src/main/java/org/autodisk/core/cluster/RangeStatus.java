package org.autodisk.core.cluster;

import java.util.HexFormat;
import java.util.List;

/**
 * One key range of the range-partitioned directory.
 *
 * @param id      range id
 * @param lowHex  lowest key of the range (inclusive), hex; empty for the start of the key space
 * @param highHex end of the range (exclusive), hex; {@code null} for the end of the key space
 * @param owner   node id of the primary
 * @param epoch   ownership epoch, bumped when the range moves
 * @param backup    node id holding the backup copy, {@code null} if none
 * @param logNodes  log nodes the owner ships this range's changes to (empty without log nodes)
 * @param backupLag log records of the owner not yet applied to the backup, -1 if unknown
 */
public record RangeStatus(int id, String lowHex, String highHex, String owner, long epoch, String backup,
        List<String> logNodes, long backupLag) {

    /** Treats a missing log-node list (JSON from an older node) as empty. */
    public RangeStatus {
        logNodes = logNodes == null ? List.of() : List.copyOf(logNodes);
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
        this(id, lowHex, highHex, owner, epoch, null, List.of(), -1);
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
