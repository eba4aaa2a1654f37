package org.autodisk.core.cluster;

/**
 * What a split did.
 *
 * @param version the metadata version that holds the split
 * @param left    the left half (keeps the split range's id)
 * @param right   the right half (a new id), starting at the split key
 */
public record SplitResult(long version, RangeStatus left, RangeStatus right) {

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
     * @return the result
     */
    public static SplitResult fromJson(byte[] json) {
        return ClusterStatus.read(json, SplitResult.class);
    }
}
