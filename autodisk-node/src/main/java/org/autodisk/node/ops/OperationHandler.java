package org.autodisk.node.ops;

/** Serves one opcode. Runs on a worker thread; it replies through the request, now or later. */
@FunctionalInterface
public interface OperationHandler {

    /**
     * Handles a request.
     *
     * @param request the request; exactly one reply must eventually be sent through it
     */
    void handle(Request request);
}
