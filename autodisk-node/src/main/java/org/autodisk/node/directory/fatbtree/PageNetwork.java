package org.autodisk.node.directory.fatbtree;

import java.util.concurrent.CompletableFuture;

/** Carries Fat-Btree messages between data nodes, first in, first out between any two of them. */
interface PageNetwork extends AutoCloseable {

    /**
     * Sends a message; the receiver's {@link FatBtreeNode#receive} gets it.
     *
     * @param from the sender
     * @param to   the receiver
     * @param m    the message
     */
    void send(String from, String to, PageMessage m);

    /**
     * Asks a peer for its copy of a page ({@link PageFetch}), apart from the messages: a fetch is not held up by
     * messages the asker has not taken yet.
     *
     * @param from the asker
     * @param to   the peer
     * @param page the page id, or {@link PageFetch#ROOT}
     * @return the answer; failed if the peer does not answer (none by default: a network that carries no fetches)
     */
    default CompletableFuture<PageFetch.Answer> fetch(String from, String to, long page) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException("this network carries no fetch"));
    }

    /** Stops sending (nothing by default). */
    @Override
    default void close() {
    }
}
