package org.autodisk.rules;

/**
 * What the rules decided for one request.
 *
 * @param kind forward, handle locally, refuse, or none (no rule decided)
 * @param logMultiplicity for {@link Kind#HANDLE_LOCALLY}: how many log nodes must hold the record
 * @param reason for {@link Kind#REFUSE}: why, for the client; empty otherwise
 */
public record Decision(Kind kind, int logMultiplicity, String reason) {

    /** No rule decided anything. */
    public static final Decision NONE = new Decision(Kind.NONE, 0, "");

    /** Send the request to the owner. */
    public static final Decision FORWARD = new Decision(Kind.FORWARD, 0, "");

    /** What a rule may decide for a request. */
    public enum Kind {
        /** No rule matched: the node applies its built-in default. */
        NONE,
        /** Forward the request to the owner of its key. */
        FORWARD,
        /** Serve the request here, shipping writes to {@code logMultiplicity} log nodes. */
        HANDLE_LOCALLY,
        /** Refuse the request with {@code reason}. */
        REFUSE
    }

    /**
     * Serve the request on this node.
     *
     * @param logMultiplicity how many log nodes must hold the record of a write
     * @return the decision
     */
    public static Decision handleLocally(int logMultiplicity) {
        return new Decision(Kind.HANDLE_LOCALLY, logMultiplicity, "");
    }

    /**
     * Refuse the request.
     *
     * @param reason why, for the client
     * @return the decision
     */
    public static Decision refuse(String reason) {
        return new Decision(Kind.REFUSE, 0, reason);
    }
}
