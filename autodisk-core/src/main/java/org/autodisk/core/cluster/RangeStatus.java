package org.autodisk.core.cluster;

import java.util.HexFormat;

/**
 * One key range of the range-partitioned directory.
 *
 * @param id      range id
 * @param lowHex  lowest key of the range (inclusive), hex; empty for the start of the key space
 * @param highHex end of the range (exclusive), hex; {@code null} for the end of the key space
 * @param owner   node id of the primary
 * @param epoch   ownership epoch, bumped when the range moves
 */
public record RangeStatus(int id, String lowHex, String highHex, String owner, long epoch) {

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
