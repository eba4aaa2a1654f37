package org.autodisk.node.data;

import org.autodisk.core.protocol.ProtocolException;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.ops.NodeContext;

/** Argument checks shared by the handlers; a violation becomes an INVALID_ARGUMENT reply naming the limit. */
final class Validation {

    private Validation() {
    }

    static void key(NodeContext ctx, byte[] key) {
        fail(ctx.limits().checkKey(key));
    }

    static void value(NodeContext ctx, byte[] value) {
        fail(ctx.limits().checkValue(value));
    }

    static void fail(String problem) {
        if (problem != null) {
            throw new ProtocolException(Status.INVALID_ARGUMENT, problem);
        }
    }
}
