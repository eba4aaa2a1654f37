package org.autodisk.it.containers;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.autodisk.core.cluster.ClusterStatus;
import org.autodisk.core.cluster.RangeStatus;

/** Keys chosen inside the ranges of a cluster's directory, so a test knows which node owns each key. */
public final class RangeKeys {

    private RangeKeys() {
    }

    /**
     * A key inside a range: the range's low bound followed by {@code suffix} (a low bound of -inf becomes the byte
     * 0x01, below every printable key).
     *
     * @param range  the range
     * @param suffix text that makes keys of one range distinct
     * @return a key the range's owner stores
     */
    public static byte[] keyIn(RangeStatus range, String suffix) {
        byte[] low = range.low();
        byte[] prefix = low.length == 0 ? new byte[] {1} : low;
        byte[] tail = suffix.getBytes(StandardCharsets.UTF_8);
        byte[] key = Arrays.copyOf(prefix, prefix.length + tail.length);
        System.arraycopy(tail, 0, key, prefix.length, tail.length);
        byte[] high = range.high();
        if (Arrays.compareUnsigned(key, low) < 0 || high != null && Arrays.compareUnsigned(key, high) >= 0) {
            throw new IllegalStateException("key " + suffix + " falls outside range " + range);
        }
        return key;
    }

    /**
     * The ranges a node owns.
     *
     * @param status the cluster map
     * @param owner  a node id
     * @return its ranges, in key order
     */
    public static List<RangeStatus> ownedBy(ClusterStatus status, String owner) {
        return status.ranges().stream().filter(r -> r.owner().equals(owner)).toList();
    }

    /**
     * The owner of a key according to a cluster map.
     *
     * @param status the cluster map
     * @param key    a key
     * @return the owning node id
     */
    public static String ownerOf(ClusterStatus status, byte[] key) {
        for (RangeStatus r : status.ranges()) {
            if (Arrays.compareUnsigned(key, r.low()) >= 0
                    && (r.high() == null || Arrays.compareUnsigned(key, r.high()) < 0)) {
                return r.owner();
            }
        }
        throw new IllegalStateException("no range holds the key");
    }
}
