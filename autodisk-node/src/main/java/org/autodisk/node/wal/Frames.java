package org.autodisk.node.wal;

import java.nio.ByteBuffer;
import org.autodisk.node.wire.LogRecord;

/**
 * The on-disk frame of one record: {@code i32 length} (big-endian) followed by {@code length} bytes of
 * {@link LogRecord#encode()}, which end with the record's CRC32C.
 */
final class Frames {

    /** Bytes of the length prefix. */
    static final int HEADER = 4;

    /** Encoded size of a record with empty key and value, the smallest valid length. */
    static final int MIN_RECORD = 4 + 8 + 8 + 1 + 2 + 4 + 4;

    private Frames() {
    }

    static byte[] encode(LogRecord record) {
        byte[] body = record.encode();
        return ByteBuffer.allocate(HEADER + body.length).putInt(body.length).put(body).array();
    }

    static int size(LogRecord record) {
        return HEADER + record.encodedSize();
    }
}
