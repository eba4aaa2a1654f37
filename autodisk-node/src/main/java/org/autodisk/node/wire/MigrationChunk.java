package org.autodisk.node.wire;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;
import org.autodisk.core.protocol.BodyReader;
import org.autodisk.core.protocol.BodyWriter;
import org.autodisk.core.protocol.KeyValue;
import org.autodisk.core.protocol.ProtocolException;
import org.autodisk.core.protocol.Status;

/**
 * The answer to MIGRATION_READ: a run of the moving range's streams from the source's snapshot, the key to go on
 * from, and (for a fresh snapshot) how far the snapshot reflects each of the range's ledgers. The streams carry a
 * CRC32C the target checks before it writes them.
 *
 * @param streams   the streams in key order
 * @param next      the key the next chunk starts at, or {@code null} when the range is copied
 * @param positions ledger to applied entry in the snapshot (empty unless the snapshot is fresh)
 */
public record MigrationChunk(List<KeyValue> streams, byte[] next, Map<Long, Long> positions) {

    /** Copies the collections. */
    public MigrationChunk {
        streams = List.copyOf(streams);
        positions = Map.copyOf(positions);
    }

    /**
     * Returns the bytes of keys and values carried.
     *
     * @return the sum of key and value lengths
     */
    public long bytes() {
        long n = 0;
        for (KeyValue kv : streams) {
            n += kv.key().length + kv.value().length;
        }
        return n;
    }

    /**
     * Encodes an OK response body carrying the chunk (the status byte, then the chunk).
     *
     * @return body bytes
     */
    public byte[] encode() {
        BodyWriter w = new BodyWriter((int) Math.min(Integer.MAX_VALUE - 64, bytes() + streams.size() * 6L + 64));
        w.u8(Status.OK.code()).u8(next == null ? 1 : 0);
        if (next != null) {
            w.shortBytes(next);
        }
        w.i32(positions.size());
        positions.forEach((ledger, entry) -> w.i64(ledger).i64(entry));
        w.i32(streams.size());
        int start = w.size();
        streams.forEach(kv -> w.shortBytes(kv.key()).longBytes(kv.value()));
        w.i32(w.crc32c(start));
        return w.toBytes();
    }

    /**
     * Decodes a chunk and checks its CRC.
     *
     * @param body an OK response body from {@link #encode}
     * @return the chunk
     * @throws ProtocolException MALFORMED if a field is wrong or the CRC does not match
     */
    public static MigrationChunk decode(byte[] body) {
        BodyReader r = new BodyReader(body, 1, body.length);
        int done = r.u8("done flag");
        byte[] next = done == 1 ? null : r.shortBytes("next key");
        int np = r.i32("position count");
        if (np < 0 || np > r.remaining() / 16) {
            throw new ProtocolException(Status.MALFORMED, "position count " + np + " does not fit the chunk");
        }
        Map<Long, Long> positions = new LinkedHashMap<>();
        for (int i = 0; i < np; i++) {
            positions.put(r.i64("ledger id"), r.i64("applied entry"));
        }
        int n = r.i32("stream count");
        if (n < 0 || n > r.remaining() / 6) {
            throw new ProtocolException(Status.MALFORMED, "stream count " + n + " does not fit the chunk");
        }
        int start = body.length - r.remaining();
        List<KeyValue> streams = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            streams.add(new KeyValue(r.shortBytes("key"), r.longBytes("value")));
        }
        CRC32C crc = new CRC32C();
        crc.update(body, start, body.length - r.remaining() - start);
        int expected = r.i32("chunk CRC");
        r.expectEnd("the migration chunk");
        if ((int) crc.getValue() != expected) {
            throw new ProtocolException(Status.MALFORMED, "a migration chunk of " + n + " streams fails its CRC32C "
                    + "check: it was damaged on the way");
        }
        return new MigrationChunk(streams, next, positions);
    }
}
