package org.autodisk.node.rangelog;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.peer.PeerException;

/**
 * Writes that reached no log node, sent again on an executor of their own rather than on the thread that failed them
 * (a writer that stops fails its writes under its lock, and sending again may wait for others); each is sent, or
 * refused if the node closes first, exactly once.
 */
final class WriteRetries {

    private final String self;
    private final Executor executor;
    private final Map<Runnable, Consumer<RuntimeException>> waiting = new ConcurrentHashMap<>();

    WriteRetries(String self, Executor executor) {
        this.self = self;
        this.executor = executor;
    }

    /**
     * Sends a write again.
     *
     * @param send      sends it
     * @param onFailure takes the refusal if the node closes before it is sent
     */
    void submit(Runnable send, Consumer<RuntimeException> onFailure) {
        Runnable task = new Runnable() { // by identity
            @Override
            public void run() {
                if (waiting.remove(this) != null) {
                    send.run();
                }
            }
        };
        waiting.put(task, onFailure);
        try {
            executor.execute(task);
        } catch (RejectedExecutionException e) { // closing
            refuse(task);
        }
    }

    /** Refuses every write still waiting (once the executor is shut down). */
    void close() {
        List.copyOf(waiting.keySet()).forEach(this::refuse);
    }

    private void refuse(Runnable task) {
        Consumer<RuntimeException> onFailure = waiting.remove(task);
        if (onFailure != null) {
            onFailure.accept(new PeerException(Status.NODE_UNAVAILABLE, "data node " + self
                    + " is closing; the write was not made"));
        }
    }
}
