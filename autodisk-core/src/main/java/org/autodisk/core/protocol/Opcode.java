package org.autodisk.core.protocol;

/** Operation codes carried in every frame header; the same code is used by a request and its response. */
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
    /** One node's own facts (role, stream count, queue figures); used node-to-node to build STATUS. */
    NODE_INFO(7),
    /** Data node to log node: make these write-ahead-log records durable. */
    LOG_APPEND(8),
    /** To a log node: read a data node's log records from an LSN, for recovery. */
    LOG_READ(9),
    /** Log node to a backup data node: apply these records of another data node to its backup copy. */
    BACKUP_APPLY(10),
    /** Reload the rules: on every node from its rules directory, all or none (body: one phase byte). */
    RULES_RELOAD(11);

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
     * @return the opcode, or {@code null} if the code is unknown to this protocol version
     */
    public static Opcode fromCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
