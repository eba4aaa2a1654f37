package org.autodisk.node.ops;

import org.autodisk.core.protocol.Frame;

/** Where a request's response frame goes: a client or peer connection, or an in-memory caller. */
@FunctionalInterface
public interface ReplySink {

    /**
     * Sends a response; never blocks.
     *
     * @param response the response frame
     */
    void send(Frame response);
}
