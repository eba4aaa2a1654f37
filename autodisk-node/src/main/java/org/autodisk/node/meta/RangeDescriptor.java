package org.autodisk.node.meta;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.autodisk.core.Keys;
import org.autodisk.core.cluster.RangeStatus;

/**
 * One range of the key space as the metadata records it: who serves it and how it got there. The epoch rises on
 * every owner change, the generation on every split; a request routed with an older epoch or generation than the
 * current descriptor is stale.
 *
 * @param id         range id (a split keeps it for the left half and gives the right half a new one)
 * @param low        lowest key, inclusive (empty: start of the key space)
 * @param high       end key, exclusive ({@code null}: end of the key space)
 * @param owner      the data node that serves it
 * @param backups    the data nodes that hold a backup copy (empty with a single data node)
 * @param logNodes   the log nodes its owner ships its changes to (empty without log nodes)
 * @param epoch      ownership epoch, from 1
 * @param generation split generation, from 1
 * @param state      what the range is doing
 */
public record RangeDescriptor(int id, byte[] low, byte[] high, String owner, List<String> backups,
        List<String> logNodes, long epoch, long generation, RangeState state) {

    /** Copies the lists. */
    public RangeDescriptor {
        backups = List.copyOf(backups);
        logNodes = List.copyOf(logNodes);
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
     * Returns this range in another state.
     *
     * @param next the state
     * @return the range
     */
    public RangeDescriptor in(RangeState next) {
        return new RangeDescriptor(id, low, high, owner, backups, logNodes, epoch, generation, next);
    }

    /**
     * Returns the first backup.
     *
     * @return its id, or {@code null} if the range has none
     */
    public String backup() {
        return backups.isEmpty() ? null : backups.get(0);
    }

    /**
     * Returns the two halves of a split at a key strictly inside this range: the left keeps this id, the right
     * gets {@code rightId}; both keep owner, backups and log nodes, and their generation is this one's plus one.
     *
     * @param at      the first key of the right half
     * @param rightId the right half's id
     * @return left, right
     */
    public List<RangeDescriptor> split(byte[] at, int rightId) {
        return List.of(new RangeDescriptor(id, low, at, owner, backups, logNodes, epoch, generation + 1, state),
                new RangeDescriptor(rightId, at, high, owner, backups, logNodes, epoch, generation + 1, state));
    }

    /**
     * Describes the span for messages.
     *
     * @return e.g. {@code [h, p)}
     */
    public String span() {
        return "[" + (low.length == 0 ? "-inf" : Keys.render(low)) + ", " + Keys.render(high) + ")";
    }

    /**
     * Returns the low key as hex (status and JSON).
     *
     * @return hex, empty for the start of the key space
     */
    public String lowHex() {
        return HexFormat.of().formatHex(low);
    }

    /**
     * Describes this range for clients.
     *
     * @param backupLag ledger entries of the owner's ranges its backup lacks, -1 if unknown
     * @param keys      streams the owner holds in it, -1 if unknown
     * @param bytes     bytes the owner holds in it, -1 if unknown
     * @param rate      stream requests the owner served for it per second lately, -1 if unknown
     * @return the range's status
     */
    public RangeStatus toStatus(long backupLag, long keys, long bytes, double rate) {
        HexFormat hex = HexFormat.of();
        return new RangeStatus(id, hex.formatHex(low), high == null ? null : hex.formatHex(high), owner, epoch,
                backup(), logNodes, backupLag, generation, state.name().toLowerCase(Locale.ROOT), keys, bytes, rate);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RangeDescriptor r && id == r.id && epoch == r.epoch && generation == r.generation
                && owner.equals(r.owner) && Arrays.equals(low, r.low) && Arrays.equals(high, r.high)
                && backups.equals(r.backups) && logNodes.equals(r.logNodes) && state == r.state;
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, epoch, generation, owner, Arrays.hashCode(low));
    }

    @Override
    public String toString() {
        return "range " + id + " " + span() + " owner=" + owner + " epoch=" + epoch + " generation=" + generation
                + (state == RangeState.SERVING ? "" : " " + state.name().toLowerCase(Locale.ROOT));
    }
}
