package org.autodisk.core;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;

/** Key helpers: unsigned lexicographic order and printable rendering. */
public final class Keys {

    /** Unsigned lexicographic byte order, the order of every AutoDisk key space. */
    public static final Comparator<byte[]> ORDER = Arrays::compareUnsigned;

    private Keys() {
    }

    /**
     * Compares two keys in unsigned lexicographic order.
     *
     * @param a first key
     * @param b second key
     * @return negative, zero or positive as {@code a} sorts before, equal to or after {@code b}
     */
    public static int compare(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, b);
    }

    /**
     * Returns the smallest key above a key: the key followed by a zero byte.
     *
     * @param key the key
     * @return its successor
     */
    public static byte[] successor(byte[] key) {
        return Arrays.copyOf(key, key.length + 1);
    }

    /**
     * Encodes a string key as UTF-8.
     *
     * @param key the key text
     * @return its UTF-8 bytes
     */
    public static byte[] utf8(String key) {
        return key.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Renders a key for logs and CLI output: printable ASCII as text, anything else as {@code 0x} hex.
     *
     * @param key the key, may be empty
     * @return a short human-readable form
     */
    public static String render(byte[] key) {
        if (key == null) {
            return "+inf";
        }
        if (key.length == 0) {
            return "\"\"";
        }
        for (byte b : key) {
            if (b < 0x20 || b > 0x7e) {
                return "0x" + HexFormat.of().formatHex(key);
            }
        }
        return new String(key, StandardCharsets.US_ASCII);
    }

    /**
     * Parses a key written as {@code 0x<hex>} or as plain UTF-8 text.
     *
     * @param text the key as given on a command line or in configuration
     * @return the key bytes
     * @throws IllegalArgumentException if a {@code 0x} form is not valid hex
     */
    public static byte[] parse(String text) {
        if (text.startsWith("0x") && text.length() > 2) {
            try {
                return HexFormat.of().parseHex(text.substring(2));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("key '" + text + "' starts with 0x but is not valid hex", e);
            }
        }
        return utf8(text);
    }
}
