package org.autodisk.core.net;

import java.util.concurrent.CompletableFuture;

/** The first exchange on a new {@link RequestChannel}: a client's HELLO, or a node's HELLO with its proof. */
@FunctionalInterface
public interface Handshake {

    /**
     * Performs the handshake; the channel is handed out only if it succeeds, else it is closed.
     *
     * @param channel the connected channel, on which the handshake sends its frames
     * @return the id of the node at the other end; fails with the handshake's own exception
     */
    CompletableFuture<String> perform(RequestChannel channel);
}
