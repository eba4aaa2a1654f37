package org.autodisk.node.ops;

import org.autodisk.core.protocol.Opcode;
import org.autodisk.node.config.ClusterMember.Role;
import org.autodisk.node.wire.PeerOp;

/**
 * Every operation a node serves after the handshake, client-visible ({@link Opcode}) or node-to-node
 * ({@link PeerOp}): whether only nodes may send it, and which role serves it ({@code null}: every role).
 */
public enum Operation {
    /** Create or replace a stream. */
    INSERT(Opcode.INSERT.code(), false, Role.DATA),
    /** Read a stream. */
    SEARCH(Opcode.SEARCH.code(), false, Role.DATA),
    /** Delete a stream. */
    DELETE(Opcode.DELETE.code(), false, Role.DATA),
    /** Ordered range read across nodes. */
    TRAVERSE(Opcode.TRAVERSE.code(), false, Role.DATA),
    /** The cluster map. */
    STATUS(Opcode.STATUS.code(), false, null),
    /** A cluster-wide rules reload, coordinated by the node asked. */
    RULES_RELOAD(Opcode.RULES_RELOAD.code(), false, null),
    /** One node's own facts. */
    NODE_INFO(PeerOp.NODE_INFO.code(), true, null),
    /** One phase of a rules reload. */
    RULES_PHASE(PeerOp.RULES_PHASE.code(), true, null),
    /** Make log records durable. */
    LOG_APPEND(PeerOp.LOG_APPEND.code(), true, Role.LOG),
    /** Read log records. */
    LOG_READ(PeerOp.LOG_READ.code(), true, Role.LOG),
    /** Apply log records to a backup copy. */
    BACKUP_APPLY(PeerOp.BACKUP_APPLY.code(), true, Role.DATA);

    private static final Operation[] BY_CODE = new Operation[256];

    static {
        for (Operation op : values()) {
            BY_CODE[op.code] = op;
        }
    }

    private final int code;
    private final boolean peerOnly;
    private final Role servedBy;

    Operation(int code, boolean peerOnly, Role servedBy) {
        this.code = code;
        this.peerOnly = peerOnly;
        this.servedBy = servedBy;
    }

    /**
     * Returns the wire code.
     *
     * @return the opcode byte
     */
    public int code() {
        return code;
    }

    /**
     * Tells whether only nodes may send it.
     *
     * @return true for node-to-node operations
     */
    public boolean peerOnly() {
        return peerOnly;
    }

    /**
     * Returns the role that serves it.
     *
     * @return the role, or {@code null} if every node serves it
     */
    public Role servedBy() {
        return servedBy;
    }

    /**
     * Looks an operation up by its wire code.
     *
     * @param code the opcode byte
     * @return the operation, or {@code null} if none (HELLO and NODE_AUTH belong to the handshake)
     */
    public static Operation fromCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
