package org.autodisk.core.protocol;

/**
 * One protocol frame. On the wire: {@code int32 length} (bytes after this field), then the 12-byte header
 * {@code u8 version, u8 opcode, u8 flags, u8 hops, i64 requestId}, then {@code length - 12} body bytes.
 *
 * @param version   protocol version of the sender
 * @param opcode    operation code (unsigned byte; may be unknown to the receiver)
 * @param flags     bit set of {@link #FLAG_RESPONSE}, {@link #FLAG_TRACE} and {@link #FLAG_ROUTED}
 * @param hops      how many node-to-node forwards this request has taken so far
 * @param requestId the sender's id for matching the response to the request
 * @param body      the body bytes, owned by the frame
 */
public record Frame(int version, int opcode, int flags, int hops, long requestId, byte[] body) {

    /** The protocol version this build speaks. */
    public static final int PROTOCOL_VERSION = 1;

    /** Header bytes after the length field. */
    public static final int HEADER_BYTES = 12;

    /** Bytes of the length field. */
    public static final int LENGTH_BYTES = 4;

    /** Set on responses. */
    public static final int FLAG_RESPONSE = 1;

    /** Set on requests that ask for a per-hop trace, and on responses that carry one. */
    public static final int FLAG_TRACE = 2;

    /** Set on keyed requests whose body starts with a {@link RouteStamp}: what the sender routed them with. */
    public static final int FLAG_ROUTED = 4;

    /**
     * Builds a request frame of this protocol version.
     *
     * @param opcode    the operation
     * @param requestId the id the response will carry
     * @param body      the encoded request body
     * @return the frame
     */
    public static Frame request(Opcode opcode, long requestId, byte[] body) {
        return new Frame(PROTOCOL_VERSION, opcode.code(), 0, 0, requestId, body);
    }

    /**
     * Builds the response to this request frame.
     *
     * @param responseBody the encoded response body (status first)
     * @return a frame with the same opcode and request id and the response flag set
     */
    public Frame response(byte[] responseBody) {
        return new Frame(PROTOCOL_VERSION, opcode, (flags & FLAG_TRACE) | FLAG_RESPONSE, hops, requestId,
                responseBody);
    }

    /**
     * Returns a copy of this frame with another request id, hop count and flags, for forwarding.
     *
     * @param newRequestId the id on the next connection
     * @param newHops      the hop count the next node sees
     * @return the copy, sharing the body
     */
    public Frame forwarded(long newRequestId, int newHops) {
        return new Frame(PROTOCOL_VERSION, opcode, flags, newHops, newRequestId, body);
    }

    /**
     * Returns a copy of this request stamped with what the sender routed it with; a stamp it had is replaced.
     *
     * @param stamp the range, epoch, generation and metadata version routed with
     * @return the stamped copy (its body is copied once, behind the stamp)
     */
    public Frame routed(RouteStamp stamp) {
        int offset = payloadOffset();
        BodyWriter w = new BodyWriter(RouteStamp.BYTES + body.length - offset);
        stamp.writeTo(w).raw(body, offset, body.length - offset);
        return new Frame(version, opcode, flags | FLAG_ROUTED, hops, requestId, w.toBytes());
    }

    /**
     * Returns what the sender routed this request with.
     *
     * @return the stamp, or {@code null} if the request is not routed
     * @throws ProtocolException MALFORMED if the flag is set but the body is too short for a stamp
     */
    public RouteStamp stamp() {
        return isRouted() ? RouteStamp.read(body) : null;
    }

    /**
     * Tells whether the routed flag is set.
     *
     * @return true if the body starts with a {@link RouteStamp}
     */
    public boolean isRouted() {
        return (flags & FLAG_ROUTED) != 0;
    }

    /**
     * Returns where the operation's own body starts: after the route stamp of a routed request.
     *
     * @return 0, or {@link RouteStamp#BYTES}
     */
    public int payloadOffset() {
        return isRouted() ? RouteStamp.BYTES : 0;
    }

    /**
     * Returns a copy with another request id and body, keeping opcode and flags.
     *
     * @param newRequestId the request id
     * @param newBody      the body
     * @return the copy
     */
    public Frame withIdAndBody(long newRequestId, byte[] newBody) {
        return new Frame(version, opcode, flags, hops, newRequestId, newBody);
    }

    /**
     * Tells whether the response flag is set.
     *
     * @return true for a response
     */
    public boolean isResponse() {
        return (flags & FLAG_RESPONSE) != 0;
    }

    /**
     * Tells whether the trace flag is set.
     *
     * @return true if a trace is asked for (request) or carried (response)
     */
    public boolean isTraced() {
        return (flags & FLAG_TRACE) != 0;
    }

    /**
     * Returns the opcode if this protocol version knows it.
     *
     * @return the opcode or {@code null}
     */
    public Opcode op() {
        return Opcode.fromCode(opcode);
    }

    /**
     * Returns the frame's size on the wire.
     *
     * @return length field plus header plus body
     */
    public int wireBytes() {
        return LENGTH_BYTES + HEADER_BYTES + body.length;
    }

    @Override
    public String toString() {
        Opcode op = op();
        return "Frame[v" + version + " " + (op == null ? "op#" + opcode : op) + (isResponse() ? " response" : "")
                + " id=" + requestId + " hops=" + hops + " body=" + body.length + "B]";
    }
}
