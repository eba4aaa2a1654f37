package org.autodisk.node.store;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.autodisk.node.wire.LogRecord;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

/**
 * How far a store applied each ledger, and how far that survives a crash: kept in memory, and stored by RocksDB in
 * its meta column family under {@code ledger/<id>} in the same write as the entries.
 */
final class LedgerPositions {

    /** The prefix of every ledger position's key. */
    static final byte[] PREFIX = "ledger/".getBytes(StandardCharsets.US_ASCII);

    private final Map<Long, Long> applied = new HashMap<>();
    private final Map<Long, Long> durable = new HashMap<>();

    /**
     * Returns the key of a ledger's position.
     *
     * @param ledgerId the ledger
     * @return {@code ledger/} and the id as 8 bytes
     */
    static byte[] key(long ledgerId) {
        return ByteBuffer.allocate(PREFIX.length + 8).put(PREFIX).putLong(ledgerId).array();
    }

    static byte[] value(long entryId) {
        return ByteBuffer.allocate(8).putLong(entryId).array();
    }

    static boolean isKey(byte[] key) {
        return key.length == PREFIX.length + 8 && Arrays.equals(key, 0, PREFIX.length, PREFIX, 0, PREFIX.length);
    }

    static long ledgerOf(byte[] key) {
        return ByteBuffer.wrap(key, PREFIX.length, 8).getLong();
    }

    /**
     * At open: every ledger's applied entry stored in the meta column family.
     *
     * @param db   the store
     * @param meta its meta column family
     * @return ledger to applied entry
     */
    static Map<Long, Long> readStored(RocksDB db, ColumnFamilyHandle meta) {
        Map<Long, Long> out = new HashMap<>();
        try (RocksIterator it = db.newIterator(meta)) {
            for (it.seek(PREFIX); it.isValid() && isKey(it.key()); it.next()) {
                out.put(ledgerOf(it.key()), ByteBuffer.wrap(it.value()).getLong());
            }
        }
        return out;
    }

    /**
     * After a flush: the applied entry of each known ledger in table files (the persisted tier has no iterator).
     *
     * @param db        the store
     * @param meta      its meta column family
     * @param persisted read options of the persisted tier
     * @return ledger to flushed applied entry
     */
    Map<Long, Long> readPersisted(RocksDB db, ColumnFamilyHandle meta, ReadOptions persisted) {
        Map<Long, Long> out = new HashMap<>();
        for (long ledger : ledgers()) {
            try {
                byte[] v = db.get(meta, persisted, key(ledger));
                if (v != null) {
                    out.put(ledger, ByteBuffer.wrap(v).getLong());
                }
            } catch (RocksDBException e) {
                throw new StoreException("RocksDB read of ledger " + ledger + "'s flushed position failed: "
                        + e.getMessage(), e);
            }
        }
        return out;
    }

    /** At open: what the store holds is what survived. */
    synchronized void opened(Map<Long, Long> stored) {
        applied.putAll(stored);
        durable.putAll(stored);
    }

    synchronized Set<Long> ledgers() {
        return Set.copyOf(applied.keySet());
    }

    synchronized long applied(long ledgerId) {
        return applied.getOrDefault(ledgerId, 0L);
    }

    synchronized void applied(long ledgerId, long entryId) {
        applied.merge(ledgerId, entryId, Math::max);
    }

    synchronized long durable(long ledgerId) {
        return durable.getOrDefault(ledgerId, 0L);
    }

    /** After a flush: the positions read from the persisted tier. */
    synchronized void durable(Map<Long, Long> persisted) {
        persisted.forEach((ledger, entry) -> durable.merge(ledger, entry, Math::max));
    }

    /**
     * Returns the entries past the ledger's applied one.
     *
     * @param ledgerId the ledger
     * @param entries  entries in id order (the record's LSN is the entry id)
     * @return those not applied yet
     */
    synchronized List<LogRecord> unapplied(long ledgerId, List<LogRecord> entries) {
        long done = applied(ledgerId);
        return entries.stream().filter(e -> e.lsn() > done).toList();
    }

    /**
     * Spreads the answers of the entries applied over all the entries given (false for a skipped one).
     *
     * @param entries all the entries
     * @param fresh   those applied, the tail of {@code entries}
     * @param changed the answers of {@code fresh}
     * @return one answer per entry
     */
    static boolean[] align(List<LogRecord> entries, List<LogRecord> fresh, boolean[] changed) {
        boolean[] out = new boolean[entries.size()];
        System.arraycopy(changed, 0, out, entries.size() - fresh.size(), fresh.size());
        return out;
    }
}
