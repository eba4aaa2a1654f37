package org.autodisk.node.meta;

import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * Waits for a state machine to have applied a log index: what the leader's answer to "how far did you commit" waits
 * for, so that it covers its whole commit index (a leader just elected commits the entries of the terms before its
 * own before it answers reads, but may not have applied all of them yet).
 */
final class AppliedWaits {

    private final NavigableMap<Long, List<CompletableFuture<Void>>> waiting = new TreeMap<>();
    private long applied = -1;

    /**
     * Returns a future that completes once the index is applied.
     *
     * @param index the log index ({@code -1}: none, at once)
     * @return the future; completed at once if it is applied already
     */
    CompletableFuture<Void> await(long index) {
        synchronized (this) {
            if (index <= applied) {
                return CompletableFuture.completedFuture(null);
            }
            CompletableFuture<Void> f = new CompletableFuture<>();
            waiting.computeIfAbsent(index, k -> new ArrayList<>()).add(f);
            return f;
        }
    }

    /**
     * Records that the state machine applied an index (an entry, or a snapshot loaded), and completes the waits it
     * ends, outside the lock.
     *
     * @param index the log index
     */
    void applied(long index) {
        List<CompletableFuture<Void>> done = new ArrayList<>();
        synchronized (this) {
            applied = Math.max(applied, index);
            NavigableMap<Long, List<CompletableFuture<Void>>> ended = waiting.headMap(applied, true);
            ended.values().forEach(done::addAll);
            ended.clear();
        }
        done.forEach(f -> f.complete(null));
    }
}
