package org.autodisk.node.ops;

import org.autodisk.core.protocol.Opcode;
import org.autodisk.node.config.ClusterMember.Role;
import org.autodisk.node.wire.PeerOp;

/**
 * Every operation a node serves after the handshake, client-visible ({@link Opcode}) or node-to-node
 * ({@link PeerOp}, codes from {@link Opcode#FIRST_PEER_CODE}: only nodes may send them), and which role serves it
 * ({@code null}: every role).
 */
public enum Operation {
    /** Create or replace a stream. */
    INSERT(Opcode.INSERT.code(), Role.DATA),
    /** Read a stream. */
    SEARCH(Opcode.SEARCH.code(), Role.DATA),
    /** Delete a stream. */
    DELETE(Opcode.DELETE.code(), Role.DATA),
    /** Ordered range read across nodes. */
    TRAVERSE(Opcode.TRAVERSE.code(), Role.DATA),
    /** The cluster map. */
    STATUS(Opcode.STATUS.code(), null),
    /** A cluster-wide rules reload, coordinated by the node asked. */
    RULES_RELOAD(Opcode.RULES_RELOAD.code(), null),
    /** Every range, gathered by the node asked. */
    RANGES(Opcode.RANGES.code(), null),
    /** Every member. */
    MEMBERS(Opcode.MEMBERS.code(), null),
    /** Split a range, proposed by the node asked. */
    SPLIT(Opcode.SPLIT.code(), null),
    /** Start or steer a migration, committed by the node asked. */
    MIGRATE(Opcode.MIGRATE.code(), null),
    /** The migrations under way. */
    MIGRATIONS(Opcode.MIGRATIONS.code(), null),
    /** One balance round, run by the node asked. */
    BALANCE(Opcode.BALANCE.code(), null),
    /** Streams a host copies into a host-driven migration's target. */
    MIGRATION_WRITE(Opcode.MIGRATION_WRITE.code(), Role.DATA),
    /** What every data node's directory holds, gathered by the node asked. */
    DIRECTORY(Opcode.DIRECTORY.code(), null),
    /** The usage of a data node's ranges. */
    RANGE_USAGE(PeerOp.RANGE_USAGE.code(), Role.DATA),
    /** One node's own facts. */
    NODE_INFO(PeerOp.NODE_INFO.code(), null),
    /** One phase of a rules reload. */
    RULES_PHASE(PeerOp.RULES_PHASE.code(), null),
    /** Make entries of a ledger durable. */
    LEDGER_APPEND(PeerOp.LEDGER_APPEND.code(), Role.LOG),
    /** Fence a ledger. */
    LEDGER_FENCE(PeerOp.LEDGER_FENCE.code(), Role.LOG),
    /** Read entries of a ledger. */
    LEDGER_READ(PeerOp.LEDGER_READ.code(), Role.LOG),
    /** Apply entries of a ledger to a backup copy, or say how far a store holds a ledger. */
    LEDGER_APPLY(PeerOp.LEDGER_APPLY.code(), Role.DATA),
    /** The next chunk of a migrating range's snapshot, from its source. */
    MIGRATION_READ(PeerOp.MIGRATION_READ.code(), Role.DATA),
    /** Split a range this data node owns at its middle stream (for a balance move of its upper half). */
    RANGE_SPLIT(PeerOp.RANGE_SPLIT.code(), Role.DATA),
    /** A range's former owner says where its ledger of the range ends, after a cutover to this data node. */
    LEDGER_HANDOVER(PeerOp.LEDGER_HANDOVER.code(), Role.DATA),
    /** A Fat-Btree page message from another data node. */
    PAGE_MESSAGE(PeerOp.PAGE_MESSAGE.code(), Role.DATA),
    /** A copy of one Fat-Btree index page, for a data node rebuilding its copies. */
    PAGE_FETCH(PeerOp.PAGE_FETCH.code(), Role.DATA),
    /** What this data node's directory holds. */
    DIRECTORY_INDEX(PeerOp.DIRECTORY_INDEX.code(), Role.DATA),
    /** Renew a writer's lease on its ledgers: which of them are fenced. */
    LEDGER_LEASE(PeerOp.LEDGER_LEASE.code(), Role.LOG),
    /** A node's heartbeat, with the nodes it suspects. */
    HEARTBEAT(PeerOp.HEARTBEAT.code(), null);

    private static final Operation[] BY_CODE = new Operation[256];

    static {
        for (Operation op : values()) {
            BY_CODE[op.code] = op;
        }
    }

    private final int code;
    private final Role servedBy;

    Operation(int code, Role servedBy) {
        this.code = code;
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
