package org.autodisk.node.store;

import java.util.Arrays;
import java.util.concurrent.locks.ReentrantLock;

/** Striped locks so that read-modify-write of one key (exact counts, delete's result) is atomic. */
final class KeyLocks {

    private static final int STRIPES = 64;

    private final ReentrantLock[] locks = new ReentrantLock[STRIPES];

    KeyLocks() {
        for (int i = 0; i < STRIPES; i++) {
            locks[i] = new ReentrantLock();
        }
    }

    ReentrantLock lockFor(byte[] key) {
        ReentrantLock lock = locks[Math.floorMod(Arrays.hashCode(key), STRIPES)];
        lock.lock();
        return lock;
    }
}
