package org.autodisk.core.protocol;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Reads a frame body written by {@link BodyWriter}; every read is bounds-checked and names the field. */
public final class BodyReader {

    private final byte[] buf;
    private final int end;
    private int pos;

    /**
     * Reads the whole array.
     *
     * @param body the body bytes
     */
    public BodyReader(byte[] body) {
        this(body, 0, body.length);
    }

    /**
     * Reads part of an array.
     *
     * @param body  the bytes
     * @param start first byte to read
     * @param end   one past the last byte to read
     */
    public BodyReader(byte[] body, int start, int end) {
        this.buf = body;
        this.pos = start;
        this.end = end;
    }

    private void need(int n, String field) {
        if (n < 0 || end - pos < n) {
            throw new ProtocolException(Status.MALFORMED, "truncated body: " + field + " needs " + n
                    + " bytes, " + (end - pos) + " left");
        }
    }

    /**
     * Reads an unsigned byte.
     *
     * @param field the field name for errors
     * @return 0..255
     */
    public int u8(String field) {
        need(1, field);
        return buf[pos++] & 0xFF;
    }

    /**
     * Reads an unsigned 16-bit integer.
     *
     * @param field the field name for errors
     * @return 0..65535
     */
    public int u16(String field) {
        need(2, field);
        int v = (buf[pos] & 0xFF) << 8 | buf[pos + 1] & 0xFF;
        pos += 2;
        return v;
    }

    /**
     * Reads a 32-bit integer.
     *
     * @param field the field name for errors
     * @return the value
     */
    public int i32(String field) {
        need(4, field);
        int v = 0;
        for (int i = 0; i < 4; i++) {
            v = v << 8 | buf[pos++] & 0xFF;
        }
        return v;
    }

    /**
     * Reads a 64-bit integer.
     *
     * @param field the field name for errors
     * @return the value
     */
    public long i64(String field) {
        need(8, field);
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = v << 8 | buf[pos++] & 0xFF;
        }
        return v;
    }

    /**
     * Reads a u16-length-prefixed byte string.
     *
     * @param field the field name for errors
     * @return the bytes
     */
    public byte[] shortBytes(String field) {
        return raw(u16(field + " length"), field);
    }

    /**
     * Reads an i32-length-prefixed byte string.
     *
     * @param field the field name for errors
     * @return the bytes
     */
    public byte[] longBytes(String field) {
        int n = i32(field + " length");
        if (n < 0) {
            throw new ProtocolException(Status.MALFORMED, field + " length is negative (" + n + ")");
        }
        return raw(n, field);
    }

    /**
     * Reads a u16-length-prefixed UTF-8 string.
     *
     * @param field the field name for errors
     * @return the text
     */
    public String string(String field) {
        return new String(shortBytes(field), StandardCharsets.UTF_8);
    }

    /**
     * Reads bytes without a length prefix.
     *
     * @param n     how many
     * @param field the field name for errors
     * @return the bytes
     */
    public byte[] raw(int n, String field) {
        need(n, field);
        byte[] out = Arrays.copyOfRange(buf, pos, pos + n);
        pos += n;
        return out;
    }

    /**
     * Returns how many bytes are left.
     *
     * @return unread bytes
     */
    public int remaining() {
        return end - pos;
    }

    /**
     * Fails if bytes are left over, which means the sender and receiver disagree on the layout.
     *
     * @param what the message name for errors
     */
    public void expectEnd(String what) {
        if (pos != end) {
            throw new ProtocolException(Status.MALFORMED, what + " has " + (end - pos) + " unexpected trailing bytes");
        }
    }
}
