package org.autodisk.node.ops;

import java.util.concurrent.CompletionException;
import org.autodisk.core.protocol.ProtocolException;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.store.StoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Runs a handler so that any failure becomes the request's error reply: the first run and every later one. */
public final class Guard {

    private static final Logger LOG = LoggerFactory.getLogger(Guard.class);

    private Guard() {
    }

    /**
     * Runs a handler on a request.
     *
     * @param nodeId  this node, for messages
     * @param handler the handler
     * @param request the request; replied with an error if the handler throws
     */
    public static void run(String nodeId, OperationHandler handler, Request request) {
        try {
            handler.handle(request);
        } catch (ProtocolException e) {
            request.replyError(e.status(), e.getMessage());
        } catch (StoreException e) {
            LOG.error("{}: store failure", nodeId, e);
            request.replyError(Status.INTERNAL_ERROR, "store failure on node " + nodeId + ": " + e.getMessage());
        } catch (RuntimeException e) {
            LOG.error("{}: {} failed", nodeId, request.frame(), e);
            request.replyError(Status.INTERNAL_ERROR, "node " + nodeId + " failed: " + e);
        }
    }

    /**
     * Answers a request whose asynchronous work failed: a {@link ProtocolException} with its own status, anything
     * else as NODE_UNAVAILABLE.
     *
     * @param request the request
     * @param error   the failure (a {@link CompletionException} is unwrapped)
     * @param notDone what was not done, for the message, e.g. {@code "split not done"}
     */
    public static void failed(Request request, Throwable error, String notDone) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (cause instanceof ProtocolException p) {
            request.replyError(p.status(), p.getMessage());
        } else {
            request.replyError(Status.NODE_UNAVAILABLE, notDone + ": " + cause.getMessage());
        }
    }
}
