package org.autodisk.core.protocol;

/** Outcome codes: the first byte of every response body. */
public enum Status {
    /** The operation succeeded; the payload follows. */
    OK(0),
    /** A key, value or argument broke a limit or rule; the message names it. */
    INVALID_ARGUMENT(1),
    /** The frame was larger than the receiver's maximum frame size. */
    FRAME_TOO_LARGE(2),
    /** The frame body could not be parsed. */
    MALFORMED(3),
    /** The opcode is not known to the receiver. */
    UNKNOWN_OPCODE(4),
    /** The peer speaks another protocol version. */
    UNSUPPORTED_VERSION(5),
    /** The node's request queue is full; retry later or elsewhere. */
    OVERLOADED(6),
    /** Forwarding exceeded the hop limit: the nodes' maps disagree. */
    HOP_LIMIT_EXCEEDED(7),
    /** A node needed for the request could not be reached. */
    NODE_UNAVAILABLE(8),
    /** A node needed for the request did not answer in time. */
    TIMEOUT(9),
    /** The node is shutting down and takes no new requests. */
    SHUTTING_DOWN(10),
    /** An unexpected failure inside the node; the message says what. */
    INTERNAL_ERROR(11),
    /** A request arrived before the HELLO handshake. */
    HANDSHAKE_REQUIRED(12),
    /** A log node refused records of a range epoch older than one it has seen: the sender is a stale owner. */
    FENCED(13),
    /** A rule refused the request (a write-protected key, say); the message says why. */
    REFUSED(14),
    /** A rule threw while deciding the request; the message names the rule. The node goes on serving. */
    RULE_FAILED(15),
    /**
     * The connection may not do this: a node-to-node operation on a connection whose HELLO said client, or a node
     * handshake without a valid proof that the sender knows the cluster secret.
     */
    NOT_PERMITTED(16),
    /** This node's role does not serve the operation (a stream request to a log node, say); the message says who. */
    WRONG_ROLE(17),
    /**
     * The request was routed ({@link RouteStamp}) with an older cluster map than the node asked has, and that node
     * does not serve the key: the body carries its metadata version and the range that holds the key now
     * ({@link Responses#parseStaleMap}); the sender catches up and routes again.
     */
    STALE_MAP(18),
    /**
     * A write whose outcome could not be known (its log acknowledgement was lost or came too late): it may or may
     * not have been applied, and the range's log recovery settles it one way for every copy. Retrying an insert or a
     * delete is safe.
     */
    OUTCOME_UNKNOWN(19);

    private static final Status[] BY_CODE = new Status[256];

    static {
        for (Status s : values()) {
            BY_CODE[s.code] = s;
        }
    }

    private final int code;

    Status(int code) {
        this.code = code;
    }

    /**
     * Returns the wire code.
     *
     * @return the unsigned byte that stands for this status
     */
    public int code() {
        return code;
    }

    /**
     * Looks a status up by its wire code.
     *
     * @param code an unsigned byte
     * @return the status; an unknown code maps to {@link #INTERNAL_ERROR}
     */
    public static Status fromCode(int code) {
        Status s = code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
        return s == null ? INTERNAL_ERROR : s;
    }
}
