package org.autodisk.core.protocol;

/**
 * A stream: key and value.
 *
 * @param key   the key bytes
 * @param value the value bytes
 */
public record KeyValue(byte[] key, byte[] value) {
}
