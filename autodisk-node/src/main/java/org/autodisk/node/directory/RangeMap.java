package org.autodisk.node.directory;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.autodisk.core.Keys;

/**
 * An immutable, versioned range-partitioned map of the whole key space: contiguous ranges in key order, the
 * first starting at the empty key and the last open-ended, so every key has exactly one owner.
 */
public final class RangeMap {

    private final long version;
    private final List<KeyRange> ranges;
    private final byte[][] lows;

    /**
     * Creates a map after checking that the ranges tile the key space.
     *
     * @param version map version; a node installs only newer versions
     * @param ranges  ranges in key order
     * @throws IllegalArgumentException if the ranges leave a gap, overlap or are out of order
     */
    public RangeMap(long version, List<KeyRange> ranges) {
        this.version = version;
        this.ranges = List.copyOf(ranges);
        this.lows = new byte[ranges.size()][];
        validate();
        for (int i = 0; i < lows.length; i++) {
            lows[i] = this.ranges.get(i).low();
        }
    }

    private void validate() {
        if (ranges.isEmpty() || ranges.get(0).low().length != 0 || ranges.get(ranges.size() - 1).high() != null) {
            throw new IllegalArgumentException("ranges must start at the empty key and end open: " + ranges);
        }
        for (int i = 1; i < ranges.size(); i++) {
            byte[] prevHigh = ranges.get(i - 1).high();
            if (prevHigh == null || Keys.compare(prevHigh, ranges.get(i).low()) != 0
                    || Keys.compare(ranges.get(i).low(), ranges.get(i - 1).low()) <= 0) {
                throw new IllegalArgumentException("ranges " + (i - 1) + " and " + i + " do not meet: " + ranges);
            }
        }
    }

    /**
     * Splits the key space among data nodes at cluster creation: at the given split points, or, if none are
     * given, evenly by the first key byte. Range {@code i} is owned by {@code owners[i % n]} and backed up on
     * the next data node, {@code owners[(i + 1) % n]} (no backup with a single data node).
     *
     * @param owners      data node ids, in order
     * @param splitPoints sorted, distinct, non-empty keys where a new range starts; empty for an even split
     * @return the map, version 1, every range at epoch 1
     */
    public static RangeMap initial(List<String> owners, List<byte[]> splitPoints) {
        if (owners.isEmpty()) {
            throw new IllegalArgumentException("a cluster needs at least one data node");
        }
        List<byte[]> points = splitPoints.isEmpty() ? evenSplit(owners.size()) : splitPoints;
        List<KeyRange> ranges = new ArrayList<>();
        byte[] low = new byte[0];
        for (int i = 0; i <= points.size(); i++) {
            byte[] high = i < points.size() ? points.get(i) : null;
            String owner = owners.get(i % owners.size());
            String backup = owners.size() > 1 ? owners.get((i + 1) % owners.size()) : null;
            ranges.add(new KeyRange(i, low, high, owner, 1, backup));
            low = high;
        }
        return new RangeMap(1, ranges);
    }

    private static List<byte[]> evenSplit(int n) {
        List<byte[]> points = new ArrayList<>();
        for (int i = 1; i < n; i++) {
            points.add(new byte[] {(byte) (i * 256 / n)});
        }
        return points;
    }

    /**
     * Finds the range that holds a key.
     *
     * @param key the key
     * @return its range
     */
    public KeyRange lookup(byte[] key) {
        int lo = 0;
        int hi = lows.length - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (Keys.compare(lows[mid], key) <= 0) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return ranges.get(lo);
    }

    /**
     * Returns the ranges that intersect {@code [from, toExclusive)}, in key order.
     *
     * @param from        inclusive start
     * @param toExclusive exclusive end, {@code null} for the end of the key space
     * @return the ranges
     */
    public List<KeyRange> overlapping(byte[] from, byte[] toExclusive) {
        List<KeyRange> out = new ArrayList<>();
        for (int i = ranges.indexOf(lookup(from)); i < ranges.size(); i++) {
            KeyRange r = ranges.get(i);
            if (toExclusive != null && Keys.compare(r.low(), toExclusive) >= 0) {
                break;
            }
            out.add(r);
        }
        return out;
    }

    /**
     * Finds a range by id.
     *
     * @param id the range id
     * @return the range, or {@code null} if the map has none with that id
     */
    public KeyRange byId(int id) {
        for (KeyRange r : ranges) {
            if (r.id() == id) {
                return r;
            }
        }
        return null;
    }

    /**
     * Returns the map version.
     *
     * @return the version
     */
    public long version() {
        return version;
    }

    /**
     * Returns all ranges in key order.
     *
     * @return an unmodifiable list
     */
    public List<KeyRange> ranges() {
        return Collections.unmodifiableList(ranges);
    }

    @Override
    public String toString() {
        return "RangeMap v" + version + " " + ranges;
    }
}
