package org.autodisk.node.rangelog;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The ledgers a migration's cutover opens for this node in its own metadata change, known to this process only: the
 * range's slot at the new epoch may write such a ledger without recovering it, since nothing wrote it yet. Claimed
 * once; after a restart nothing is reserved and the slot recovers the ledger like any other it finds open.
 */
final class CutoverLedgers {

    private final Set<String> reserved = ConcurrentHashMap.newKeySet();

    void reserve(int rangeId, long epoch) {
        reserved.add(key(rangeId, epoch));
    }

    void release(int rangeId, long epoch) {
        reserved.remove(key(rangeId, epoch));
    }

    /**
     * Takes the reservation of a range at an epoch.
     *
     * @return true once, if a cutover of this process reserved it
     */
    boolean claim(int rangeId, long epoch) {
        return reserved.remove(key(rangeId, epoch));
    }

    private static String key(int rangeId, long epoch) {
        return rangeId + "@" + epoch;
    }
}
