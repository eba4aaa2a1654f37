package org.autodisk.core.protocol;

/**
 * INSERT body: create or replace a stream.
 *
 * @param key   the key, 1..1024 bytes
 * @param value the value
 */
public record InsertRequest(byte[] key, byte[] value) {

    /**
     * Encodes the body.
     *
     * @return body bytes
     */
    public byte[] encode() {
        return new BodyWriter(key.length + value.length + 6).shortBytes(key).longBytes(value).toBytes();
    }

    /**
     * Decodes an INSERT body.
     *
     * @param body body bytes
     * @return the request
     */
    public static InsertRequest decode(byte[] body) {
        return decode(body, 0);
    }

    /**
     * Decodes an INSERT body that starts at an offset (after a frame's route stamp).
     *
     * @param body   body bytes
     * @param offset where the request starts
     * @return the request
     */
    public static InsertRequest decode(byte[] body, int offset) {
        BodyReader r = new BodyReader(body, offset, body.length);
        InsertRequest req = new InsertRequest(r.shortBytes("key"), r.longBytes("value"));
        r.expectEnd("INSERT request");
        return req;
    }
}
