package org.autodisk.core.protocol;

/**
 * SEARCH and DELETE body: just the key.
 *
 * @param key the key, 1..1024 bytes
 */
public record KeyRequest(byte[] key) {

    /**
     * Encodes the body.
     *
     * @return body bytes
     */
    public byte[] encode() {
        return new BodyWriter(key.length + 2).shortBytes(key).toBytes();
    }

    /**
     * Decodes a SEARCH or DELETE body.
     *
     * @param body body bytes
     * @return the request
     */
    public static KeyRequest decode(byte[] body) {
        return decode(body, 0);
    }

    /**
     * Decodes a SEARCH or DELETE body that starts at an offset (after a frame's route stamp).
     *
     * @param body   body bytes
     * @param offset where the request starts
     * @return the request
     */
    public static KeyRequest decode(byte[] body, int offset) {
        BodyReader r = new BodyReader(body, offset, body.length);
        KeyRequest req = new KeyRequest(r.shortBytes("key"));
        r.expectEnd("key request");
        return req;
    }
}
