package org.autodisk.node.ops;

/** Who sent a request, as its connection's handshake established. */
public enum Caller {
    /** A host (client library or CLI): may use only the client operations. */
    CLIENT,
    /** A node that proved it belongs to the cluster: may use every operation. */
    NODE
}
