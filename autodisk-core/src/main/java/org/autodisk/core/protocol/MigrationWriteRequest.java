package org.autodisk.core.protocol;

import java.util.ArrayList;
import java.util.List;

/**
 * MIGRATION_WRITE: streams a host copies into the target of a host-driven migration ({@code startedBy: host}), sent
 * to that target directly. An empty list asks only whether the target is ready to take them; {@code last} says the
 * host copied everything: the target makes its copy durable and goes on to catch up from the range's ledgers.
 *
 * @param migrationId the migration
 * @param last        whether these are the last streams of the copy
 * @param streams     the streams, each a key and its value
 */
public record MigrationWriteRequest(long migrationId, boolean last, List<KeyValue> streams) {

    /** Copies the list. */
    public MigrationWriteRequest {
        streams = List.copyOf(streams);
    }

    /**
     * Encodes as a request body: i64 migration id, u8 last, i32 n, n × (key, value).
     *
     * @return the body
     */
    public byte[] encode() {
        int size = 13;
        for (KeyValue kv : streams) {
            size += kv.key().length + kv.value().length + 6;
        }
        BodyWriter w = new BodyWriter(size).i64(migrationId).u8(last ? 1 : 0).i32(streams.size());
        for (KeyValue kv : streams) {
            w.shortBytes(kv.key()).longBytes(kv.value());
        }
        return w.toBytes();
    }

    /**
     * Decodes a request body.
     *
     * @param body the body
     * @return the request
     * @throws ProtocolException (MALFORMED) when the body is cut short, too long or counts streams it lacks
     */
    public static MigrationWriteRequest decode(byte[] body) {
        BodyReader r = new BodyReader(body);
        long id = r.i64("migration id");
        int last = r.u8("last");
        if (last > 1) {
            throw new ProtocolException(Status.MALFORMED, "MIGRATION_WRITE's last flag is " + last + ", not 0 or 1");
        }
        int n = r.i32("stream count");
        if (n < 0 || n > r.remaining() / 6) {
            throw new ProtocolException(Status.MALFORMED, "MIGRATION_WRITE counts " + n + " streams in "
                    + r.remaining() + " bytes");
        }
        List<KeyValue> streams = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            streams.add(new KeyValue(r.shortBytes("key"), r.longBytes("value")));
        }
        r.expectEnd("MIGRATION_WRITE request");
        return new MigrationWriteRequest(id, last == 1, streams);
    }
}
