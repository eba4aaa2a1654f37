package org.autodisk.node.wire;

import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.Opcode;

/**
 * Operations only nodes send each other, on connections whose HELLO proved cluster membership. Their codes start
 * at {@link Opcode#FIRST_PEER_CODE}, so a node refuses them on a client connection from the frame header alone.
 */
public enum PeerOp {
    /**
     * One node's own facts (role, stream count, metrics); used to build STATUS and the load reports. An empty body
     * asks for every figure; {@link #BRIEF} leaves out the latency percentiles (the frequent asks: load reports,
     * log-node probes).
     */
    NODE_INFO(Opcode.FIRST_PEER_CODE),
    // FIRST_PEER_CODE + 1 to + 3 were LOG_APPEND, LOG_READ and BACKUP_APPLY of the log stream that ledgers replaced;
    // they are not reused, so a node of that version gets "unknown operation" rather than a misread frame.
    /** One phase of a cluster-wide rules reload: prepare, commit or abort ({@link RulesPhase}). */
    RULES_PHASE(Opcode.FIRST_PEER_CODE + 4),
    /** The second frame of a node handshake: the connecting node's proof ({@link NodeAuth}). */
    NODE_AUTH(Opcode.FIRST_PEER_CODE + 5),
    /** To a data node: the keys and bytes of the ranges it owns (JSON: range id to {@code [keys, bytes]}). */
    RANGE_USAGE(Opcode.FIRST_PEER_CODE + 6),
    /** Data node to log node: make these entries of a ledger durable ({@link LedgerAppendRequest}). */
    LEDGER_APPEND(Opcode.FIRST_PEER_CODE + 7),
    /** To a log node: fence a ledger, durably, and answer its last entry there ({@link LedgerWire#fence}). */
    LEDGER_FENCE(Opcode.FIRST_PEER_CODE + 8),
    /** To a log node: consecutive entries of a ledger from an entry on ({@link LedgerReadRequest}). */
    LEDGER_READ(Opcode.FIRST_PEER_CODE + 9),
    /**
     * Log node to a data node: apply entries of a ledger to the backup copy, or say how far the backup copy (or the
     * node's own store) holds a ledger ({@link LedgerApplyRequest}).
     */
    LEDGER_APPLY(Opcode.FIRST_PEER_CODE + 10),
    /**
     * A migration's target to its source: the next chunk of the moving range's snapshot ({@link MigrationReadRequest},
     * answered by a {@link MigrationChunk}).
     */
    MIGRATION_READ(Opcode.FIRST_PEER_CODE + 11),
    /**
     * To a range's owner: split the range at its middle stream, if it is still at the generation given (body: range id
     * and generation, {@link RangeSplitRequest}); answered by the halves ({@code SplitResult} JSON).
     */
    RANGE_SPLIT(Opcode.FIRST_PEER_CODE + 12),
    /**
     * A range's former owner to its new owner after a migration's cutover: its ledger of the range ends at an entry,
     * every entry acknowledged ({@link LedgerHandover}); the new owner need not wait for the close to commit.
     */
    LEDGER_HANDOVER(Opcode.FIRST_PEER_CODE + 13),
    /**
     * Data node to data node under the Fat-Btree directory: one message of a structure change (a lock request, a
     * grant, a release, a page batch, its receipt), in the order the sender sent them.
     */
    PAGE_MESSAGE(Opcode.FIRST_PEER_CODE + 14),
    /** What a data node's directory holds (JSON {@code DirectoryReport.NodeIndex}), for DIRECTORY. */
    DIRECTORY_INDEX(Opcode.FIRST_PEER_CODE + 15),
    /**
     * Data node to log node: renew the writer's lease on its ledgers ({@link LedgerWire#ledgerIds}); answered by the
     * ones fenced there ({@link LedgerWire#fencedResult}).
     */
    LEDGER_LEASE(Opcode.FIRST_PEER_CODE + 16),
    /** Any node to any node: I am alive, and these are the nodes I suspect ({@link Heartbeat}); answered alike. */
    HEARTBEAT(Opcode.FIRST_PEER_CODE + 17),
    /**
     * Data node to data node under the Fat-Btree directory: a copy of one index page (or the root), for a node
     * rebuilding the copies it lost; answered on the directory's thread.
     */
    PAGE_FETCH(Opcode.FIRST_PEER_CODE + 18);

    /** The body of a NODE_INFO that asks for counters and gauges only, without latency percentiles. */
    public static final byte BRIEF = 1;
    /**
     * The body of a NODE_INFO that asks whether the node takes writes: answered as {@link #BRIEF}, or
     * {@code NODE_UNAVAILABLE} by a node that takes none now (a log node whose journal failed).
     */
    public static final byte WRITABLE = 2;

    private static final PeerOp[] BY_CODE = new PeerOp[256];

    static {
        for (PeerOp op : values()) {
            BY_CODE[op.code] = op;
        }
    }

    private final int code;

    PeerOp(int code) {
        this.code = code;
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
     * Builds a request frame of this operation.
     *
     * @param body the encoded body
     * @return the frame (request id 0: the channel assigns one)
     */
    public Frame request(byte[] body) {
        return new Frame(Frame.PROTOCOL_VERSION, code, 0, 0, 0, body);
    }

    /**
     * Looks a peer operation up by its wire code.
     *
     * @param code an unsigned byte
     * @return the operation, or {@code null}
     */
    public static PeerOp fromCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }

    /**
     * Names any opcode, client or peer, for messages.
     *
     * @param code the wire code
     * @return the operation's name, or {@code op#N}
     */
    public static String describe(int code) {
        PeerOp op = fromCode(code);
        return op != null ? op.name() : Opcode.describe(code);
    }
}
