package org.autodisk.node.directory;

import java.util.Arrays;
import java.util.HexFormat;
import org.autodisk.core.Keys;
import org.autodisk.core.cluster.RangeStatus;

/**
 * One range of the key space and who owns it.
 *
 * @param id    range id, stable across moves
 * @param low   lowest key, inclusive (empty: start of the key space)
 * @param high  end key, exclusive ({@code null}: end of the key space)
 * @param owner node id of the primary
 * @param epoch ownership epoch; a move bumps it
 * @param backup node holding the backup copy, {@code null} if none
 */
public record KeyRange(int id, byte[] low, byte[] high, String owner, long epoch, String backup) {

    /**
     * Creates a range without a backup.
     *
     * @param id    range id
     * @param low   inclusive low key
     * @param high  exclusive high key or {@code null}
     * @param owner owner
     * @param epoch epoch
     */
    public KeyRange(int id, byte[] low, byte[] high, String owner, long epoch) {
        this(id, low, high, owner, epoch, null);
    }

    /**
     * Tells whether a key falls in this range.
     *
     * @param key the key
     * @return true if {@code low <= key < high}
     */
    public boolean contains(byte[] key) {
        return Keys.compare(key, low) >= 0 && (high == null || Keys.compare(key, high) < 0);
    }

    /**
     * Returns this range with another owner and epoch, for moves.
     *
     * @param newOwner the new primary
     * @param newEpoch the new epoch, greater than this one
     * @return the moved range
     */
    public KeyRange movedTo(String newOwner, long newEpoch) {
        return new KeyRange(id, low, high, newOwner, newEpoch, backup);
    }

    /**
     * Converts to the client-visible form.
     *
     * @param logNodes  the owner's log nodes
     * @param backupLag records not yet applied to the backup, -1 if unknown
     * @return the status record
     */
    public RangeStatus toStatus(java.util.List<String> logNodes, long backupLag) {
        HexFormat hex = HexFormat.of();
        return new RangeStatus(id, hex.formatHex(low), high == null ? null : hex.formatHex(high), owner, epoch,
                backup, logNodes, backupLag);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KeyRange r && id == r.id && epoch == r.epoch && owner.equals(r.owner)
                && Arrays.equals(low, r.low) && Arrays.equals(high, r.high);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * id + Arrays.hashCode(low)) + owner.hashCode();
    }

    @Override
    public String toString() {
        return "range " + id + " [" + Keys.render(low) + ", " + Keys.render(high) + ") owner=" + owner
                + " epoch=" + epoch;
    }
}
