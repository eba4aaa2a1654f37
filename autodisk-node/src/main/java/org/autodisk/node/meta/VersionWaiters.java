package org.autodisk.node.meta;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Futures that complete once a replica has applied a metadata version. It is told of every applied state after the
 * replica's other listeners (the directory among them), so a completed wait means the node routes by that version.
 * Waits are kept by version and completed in order; a wait that times out is removed at once.
 */
final class VersionWaiters implements Consumer<MetaState> {

    private final String nodeId;
    private final TreeMap<Long, List<CompletableFuture<MetaState>>> waiting = new TreeMap<>();
    private MetaState latest = MetaState.EMPTY;

    VersionWaiters(String nodeId) {
        this.nodeId = nodeId;
    }

    @Override
    public void accept(MetaState state) {
        List<CompletableFuture<MetaState>> done = new ArrayList<>();
        MetaState now;
        synchronized (this) {
            if (state.version() > latest.version() || !latest.bootstrapped() && state.bootstrapped()) {
                latest = state;
            }
            now = latest;
            while (!waiting.isEmpty() && waiting.firstKey() <= now.version()) {
                done.addAll(waiting.pollFirstEntry().getValue());
            }
        }
        done.forEach(f -> f.complete(now));
    }

    /**
     * Waits for a version.
     *
     * @param version the version
     * @param timeout how long at most
     * @return the first state applied at or above it; fails with a {@link MetadataException} after the timeout
     */
    CompletableFuture<MetaState> await(long version, Duration timeout) {
        CompletableFuture<MetaState> f = new CompletableFuture<>();
        synchronized (this) {
            if (latest.version() >= version) {
                return CompletableFuture.completedFuture(latest);
            }
            waiting.computeIfAbsent(version, v -> new ArrayList<>()).add(f);
        }
        CompletableFuture.delayedExecutor(timeout.toMillis(), TimeUnit.MILLISECONDS).execute(() -> expire(version, f,
                timeout));
        return f;
    }

    private void expire(long version, CompletableFuture<MetaState> f, Duration timeout) {
        long applied;
        synchronized (this) {
            List<CompletableFuture<MetaState>> list = waiting.get(version);
            if (list == null || !list.remove(f)) {
                return;
            }
            if (list.isEmpty()) {
                waiting.remove(version);
            }
            applied = latest.version();
        }
        f.completeExceptionally(new MetadataException("node " + nodeId + " had not applied metadata version "
                + version + " within " + timeout.toMillis() + " ms (it has applied " + applied + ")", null));
    }
}
