package org.autodisk.core.protocol;

/**
 * Operation codes a client may send, carried in every frame header; a request and its response share the code.
 * Codes from {@link #FIRST_PEER_CODE} on belong to the node-to-node protocol, which only nodes that proved they
 * belong to the cluster may use; they are defined by the node, not here.
 */
public enum Opcode {
    /** Connection handshake: the first frame each side sends. */
    HELLO(1),
    /** Create or replace a stream. */
    INSERT(2),
    /** Read a stream. */
    SEARCH(3),
    /** Delete a stream. */
    DELETE(4),
    /** Ordered range read that crosses node boundaries. */
    TRAVERSE(5),
    /** The cluster map: nodes, ranges and counts, gathered by the node asked. */
    STATUS(6),
    /**
     * Every range with its owner, backups, epoch, generation, state, keys and bytes ({@code ranges}); a body of one
     * byte 0 asks for the map only, without measuring the ranges (a client's routing table).
     */
    RANGES(7),
    /** Every member with its state and metadata replica ({@code members}). */
    MEMBERS(8),
    /** Split the range holding a key at that key ({@link KeyRequest}); data stays on its owner. */
    SPLIT(9),
    /** Reload the rules on every node from its rules directory, all or none ({@link RulesReloadRequest}). */
    RULES_RELOAD(11),
    /** Start, pause, resume, throttle or abort a range's migration (JSON {@code MigrationCommand}). */
    MIGRATE(12),
    /** The migrations under way (JSON {@code MigrationsReport}). */
    MIGRATIONS(13),
    /**
     * One balance round: the balance rules evaluated on the cluster's load now (JSON {@code BalanceReport}); a body
     * of one byte 1 only shows what they propose (dry run), 0 starts it.
     */
    BALANCE(14),
    /**
     * Streams a host copies into the target of a host-driven migration, sent to that target
     * ({@link MigrationWriteRequest}); answers the number written.
     */
    MIGRATION_WRITE(15),
    /**
     * The directory as every data node holds it (JSON {@code DirectoryReport}): under the Fat-Btree each node's index
     * page copies and leaves, gathered by the node asked.
     */
    DIRECTORY(16);

    /** The first opcode of the node-to-node protocol; a client never sends one. */
    public static final int FIRST_PEER_CODE = 64;

    private static final Opcode[] BY_CODE = new Opcode[256];

    static {
        for (Opcode op : values()) {
            BY_CODE[op.code] = op;
        }
    }

    private final int code;

    Opcode(int code) {
        this.code = code;
    }

    /**
     * Returns the wire code.
     *
     * @return the unsigned byte that stands for this opcode
     */
    public int code() {
        return code;
    }

    /**
     * Looks an opcode up by its wire code.
     *
     * @param code an unsigned byte
     * @return the opcode, or {@code null} if the code is not a client operation of this protocol version
     */
    public static Opcode fromCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }

    /**
     * Names an opcode for messages: the client operation's name, or {@code op#N}.
     *
     * @param code the wire code
     * @return the name
     */
    public static String describe(int code) {
        Opcode op = fromCode(code);
        return op == null ? "op#" + code : op.name();
    }
}
