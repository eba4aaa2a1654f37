package org.autodisk.core.protocol;

/**
 * The handshake: the first frame on every connection, from the connecting side. The receiver answers OK
 * with its own node id, or {@link Status#UNSUPPORTED_VERSION} naming both versions and closes.
 *
 * @param version the protocol version the sender speaks
 * @param kind    who connects
 * @param peerId  the sender's node id, or a client's self-chosen name
 */
public record Hello(int version, PeerKind kind, String peerId) {

    /** "ADSK": the first body bytes of a HELLO, so that a stray connection is recognised at once. */
    public static final int MAGIC = 0x4144534B;

    /** Who opened a connection. */
    public enum PeerKind {
        /** A host using the client library or CLI. */
        CLIENT,
        /** Another AutoDisk node. */
        NODE
    }

    /**
     * Encodes the body.
     *
     * @return body bytes
     */
    public byte[] encode() {
        return new BodyWriter(32).i32(MAGIC).u8(version).u8(kind.ordinal()).string(peerId).toBytes();
    }

    /**
     * Decodes a HELLO body.
     *
     * @param body body bytes
     * @return the hello
     * @throws ProtocolException if the magic or layout is wrong
     */
    public static Hello decode(byte[] body) {
        BodyReader r = new BodyReader(body);
        int magic = r.i32("hello magic");
        if (magic != MAGIC) {
            throw new ProtocolException(Status.MALFORMED, "not an AutoDisk handshake (bad magic 0x"
                    + Integer.toHexString(magic) + ")");
        }
        int version = r.u8("hello version");
        int kind = r.u8("hello peer kind");
        if (kind >= PeerKind.values().length) {
            throw new ProtocolException(Status.MALFORMED, "unknown peer kind " + kind + " in handshake");
        }
        return new Hello(version, PeerKind.values()[kind], r.string("hello peer id"));
    }

    /**
     * Builds the HELLO of this build's protocol version.
     *
     * @param kind   who connects
     * @param peerId the sender's id
     * @return the hello
     */
    public static Hello of(PeerKind kind, String peerId) {
        return new Hello(Frame.PROTOCOL_VERSION, kind, peerId);
    }
}
