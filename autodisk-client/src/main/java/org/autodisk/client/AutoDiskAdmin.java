package org.autodisk.client;

import java.util.concurrent.CompletableFuture;
import org.autodisk.core.Keys;
import org.autodisk.core.cluster.MembersReport;
import org.autodisk.core.cluster.RangesReport;
import org.autodisk.core.cluster.SplitResult;

/**
 * The administrative view of a client ({@link AutoDiskClient#admin()}): the cluster's ranges and members as its
 * metadata records them, and splits. Shares the client's connection; thread-safe.
 */
public final class AutoDiskAdmin {

    private final AutoDiskClient client;
    private final DefaultAsyncClient async;

    AutoDiskAdmin(AutoDiskClient client, DefaultAsyncClient async) {
        this.client = client;
        this.async = async;
    }

    /**
     * Lists every range: span, owner, backups, log nodes, epoch, generation, state, and the keys and bytes its
     * owner holds.
     *
     * @return the ranges in key order, as the connected node's metadata has them
     */
    public RangesReport ranges() {
        return client.await(async.ranges());
    }

    /**
     * Lists every member with its state and metadata replica.
     *
     * @return the members
     */
    public MembersReport members() {
        return client.await(async.members());
    }

    /**
     * Splits the range holding a key at that key: both halves stay on the owner, the data does not move, and the
     * generation of both rises by one. Not retried after a lost connection (a second split would be refused).
     *
     * @param key the first key of the right half; must lie strictly inside a range
     * @return the two halves
     * @throws InvalidRequestException if the key is malformed, already starts a range, or the split was refused
     * @throws NodeUnavailableException if the metadata could not commit it (no majority of its voters)
     */
    public SplitResult split(byte[] key) {
        return client.await(async.split(key));
    }

    /**
     * Splits at a string key, encoded as UTF-8.
     *
     * @param key the first key of the right half
     * @return the two halves
     */
    public SplitResult split(String key) {
        return split(Keys.utf8(key));
    }

    /**
     * As {@link #split(byte[])}, without waiting.
     *
     * @param key the first key of the right half
     * @return the two halves; fails as {@link #split(byte[])} throws
     */
    public CompletableFuture<SplitResult> splitAsync(byte[] key) {
        return async.split(key);
    }
}
