package org.autodisk.node.meta;

import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/** Futures that complete once a replica has applied a metadata version: told of every state it applies. */
final class VersionWaiters implements Consumer<MetaState> {

    /** One wait. */
    private record Waiter(long version, CompletableFuture<MetaState> future) {
    }

    private final String nodeId;
    private final Queue<Waiter> waiting = new ConcurrentLinkedQueue<>();
    private volatile MetaState latest = MetaState.EMPTY;

    VersionWaiters(String nodeId) {
        this.nodeId = nodeId;
    }

    @Override
    public void accept(MetaState state) {
        latest = state;
        waiting.removeIf(w -> w.version() <= state.version() && w.future().complete(state) || w.future().isDone());
    }

    /**
     * Waits for a version.
     *
     * @param version the version
     * @param timeout how long at most
     * @return the first state applied at or above it; fails with a {@link MetadataException} after the timeout
     */
    CompletableFuture<MetaState> await(long version, Duration timeout) {
        MetaState now = latest;
        if (now.version() >= version) {
            return CompletableFuture.completedFuture(now);
        }
        CompletableFuture<MetaState> f = new CompletableFuture<>();
        waiting.add(new Waiter(version, f));
        accept(latest);
        CompletableFuture.delayedExecutor(timeout.toMillis(), TimeUnit.MILLISECONDS).execute(() -> f
                .completeExceptionally(new MetadataException("node " + nodeId + " had not applied metadata version "
                        + version + " within " + timeout.toMillis() + " ms (it has applied " + latest.version()
                        + ")", null)));
        return f;
    }
}
