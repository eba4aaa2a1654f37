package org.autodisk.core.protocol;

/**
 * The handshake: the first frame on every connection, from the connecting side. The receiver answers OK with
 * its own node id ({@link #answer}), or {@link Status#UNSUPPORTED_VERSION} naming both versions and closes.
 * A node that connects to another node adds its proof of cluster membership as the {@code extension}: its layout
 * belongs to the node-to-node protocol, and the answer to such a HELLO carries an extension of its own.
 *
 * @param version   the protocol version the sender speaks
 * @param kind      who connects
 * @param peerId    the sender's node id, or a client's self-chosen name
 * @param extension bytes after the peer id: empty for a client, the node handshake's challenge for a node
 */
public record Hello(int version, PeerKind kind, String peerId, byte[] extension) {

    /** "ADSK": the first body bytes of a HELLO, so that a stray connection is recognised at once. */
    public static final int MAGIC = 0x4144534B;

    private static final byte[] NONE = new byte[0];

    /** Who opened a connection. */
    public enum PeerKind {
        /** A host using the client library or CLI. */
        CLIENT,
        /** Another AutoDisk node; it must prove that it belongs to the cluster. */
        NODE
    }

    /**
     * Creates a HELLO without extension.
     *
     * @param version the protocol version the sender speaks
     * @param kind    who connects
     * @param peerId  the sender's id
     */
    public Hello(int version, PeerKind kind, String peerId) {
        this(version, kind, peerId, NONE);
    }

    /**
     * Encodes the body.
     *
     * @return body bytes
     */
    public byte[] encode() {
        return new BodyWriter(32 + extension.length).i32(MAGIC).u8(version).u8(kind.ordinal()).string(peerId)
                .raw(extension).toBytes();
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
        String id = r.string("hello peer id");
        return new Hello(version, PeerKind.values()[kind], id, r.raw(r.remaining(), "hello extension"));
    }

    /**
     * Builds the HELLO of this build's protocol version, without extension.
     *
     * @param kind   who connects
     * @param peerId the sender's id
     * @return the hello
     */
    public static Hello of(PeerKind kind, String peerId) {
        return new Hello(Frame.PROTOCOL_VERSION, kind, peerId, NONE);
    }

    /**
     * Builds the OK answer to a HELLO.
     *
     * @param nodeId    the answering node
     * @param extension bytes after the node id (empty for a client)
     * @return the response body
     */
    public static byte[] answer(String nodeId, byte[] extension) {
        return new BodyWriter(16 + extension.length).u8(Status.OK.code()).string(nodeId).raw(extension).toBytes();
    }

    /**
     * Reads the node id from an OK answer to a HELLO.
     *
     * @param body the response body, status OK
     * @return the node id
     */
    public static String answeringNode(byte[] body) {
        return new BodyReader(body, 1, body.length).string("node id");
    }

    /**
     * Reads the extension from an OK answer to a HELLO.
     *
     * @param body the response body, status OK
     * @return the bytes after the node id
     */
    public static byte[] answerExtension(byte[] body) {
        BodyReader r = new BodyReader(body, 1, body.length);
        r.string("node id");
        return r.raw(r.remaining(), "hello answer extension");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Hello h && version == h.version && kind == h.kind && peerId.equals(h.peerId)
                && java.util.Arrays.equals(extension, h.extension);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(version, kind, peerId, java.util.Arrays.hashCode(extension));
    }

    @Override
    public String toString() {
        return "Hello[v" + version + " " + kind + " " + peerId + " +" + extension.length + "B]";
    }
}
