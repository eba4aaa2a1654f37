package org.autodisk.node.peer;

import java.util.concurrent.CompletableFuture;
import org.autodisk.core.protocol.Frame;

/**
 * Sends requests to other nodes and completes with their responses. Never blocks the caller.
 */
public interface PeerChannel extends AutoCloseable {

    /**
     * Sends a request to a peer; the channel assigns the request id it needs.
     *
     * @param nodeId  the peer
     * @param request the request frame
     * @return the response, or a failure with a {@link PeerException} ({@code NODE_UNAVAILABLE},
     *         {@code TIMEOUT})
     */
    CompletableFuture<Frame> send(String nodeId, Frame request);

    /** Closes every connection; pending requests fail. */
    @Override
    void close();
}
