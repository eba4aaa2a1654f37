package org.autodisk.core.protocol;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Builds a frame body: big-endian integers and length-prefixed byte strings in a growable array. */
public final class BodyWriter {

    private byte[] buf;
    private int size;

    /**
     * Creates a writer.
     *
     * @param initialCapacity expected body size in bytes
     */
    public BodyWriter(int initialCapacity) {
        buf = new byte[Math.max(16, initialCapacity)];
    }

    private void ensure(int extra) {
        if (size + extra > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + extra));
        }
    }

    /**
     * Appends one unsigned byte.
     *
     * @param v value 0..255
     * @return this writer
     */
    public BodyWriter u8(int v) {
        ensure(1);
        buf[size++] = (byte) v;
        return this;
    }

    /**
     * Appends an unsigned 16-bit integer.
     *
     * @param v value 0..65535
     * @return this writer
     */
    public BodyWriter u16(int v) {
        ensure(2);
        buf[size++] = (byte) (v >>> 8);
        buf[size++] = (byte) v;
        return this;
    }

    /**
     * Appends a 32-bit integer.
     *
     * @param v the value
     * @return this writer
     */
    public BodyWriter i32(int v) {
        ensure(4);
        for (int shift = 24; shift >= 0; shift -= 8) {
            buf[size++] = (byte) (v >>> shift);
        }
        return this;
    }

    /**
     * Appends a 64-bit integer.
     *
     * @param v the value
     * @return this writer
     */
    public BodyWriter i64(long v) {
        ensure(8);
        for (int shift = 56; shift >= 0; shift -= 8) {
            buf[size++] = (byte) (v >>> shift);
        }
        return this;
    }

    /**
     * Appends raw bytes without a length prefix.
     *
     * @param bytes the bytes
     * @return this writer
     */
    public BodyWriter raw(byte[] bytes) {
        ensure(bytes.length);
        System.arraycopy(bytes, 0, buf, size, bytes.length);
        size += bytes.length;
        return this;
    }

    /**
     * Appends part of an array without a length prefix.
     *
     * @param bytes  the array
     * @param offset first byte
     * @param length how many
     * @return this writer
     */
    public BodyWriter raw(byte[] bytes, int offset, int length) {
        ensure(length);
        System.arraycopy(bytes, offset, buf, size, length);
        size += length;
        return this;
    }

    /**
     * Appends a key: u16 length then the bytes.
     *
     * @param key up to 65535 bytes
     * @return this writer
     */
    public BodyWriter shortBytes(byte[] key) {
        if (key.length > 0xFFFF) {
            throw new IllegalArgumentException("short byte string of " + key.length + " bytes exceeds 65535");
        }
        return u16(key.length).raw(key);
    }

    /**
     * Appends a value: i32 length then the bytes.
     *
     * @param value the bytes
     * @return this writer
     */
    public BodyWriter longBytes(byte[] value) {
        return i32(value.length).raw(value);
    }

    /**
     * Appends a UTF-8 string with a u16 length.
     *
     * @param text the text
     * @return this writer
     */
    public BodyWriter string(String text) {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        if (b.length > 0xFFFF) {
            b = Arrays.copyOf(b, 0xFFFF);
        }
        return shortBytes(b);
    }

    /**
     * Computes the CRC32C of the bytes written from an offset on, without copying them.
     *
     * @param from the first byte covered
     * @return the CRC as an int
     */
    public int crc32c(int from) {
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(buf, from, size - from);
        return (int) crc.getValue();
    }

    /**
     * Returns the bytes written so far.
     *
     * @return the body
     */
    public byte[] toBytes() {
        return size == buf.length ? buf : Arrays.copyOf(buf, size);
    }

    /**
     * Returns the number of bytes written so far.
     *
     * @return the size
     */
    public int size() {
        return size;
    }
}
