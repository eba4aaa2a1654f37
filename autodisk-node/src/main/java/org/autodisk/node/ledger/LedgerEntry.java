package org.autodisk.node.ledger;

import java.util.Arrays;
import org.autodisk.node.wire.LogRecord;

/**
 * One entry of a ledger: a change of one key of a range, with its dense id in the ledger.
 *
 * @param ledgerId the ledger
 * @param entryId  its id in the ledger, from 1, dense
 * @param rangeId  the range the key belonged to when written
 * @param epoch    the range's epoch when written
 * @param op       {@link LogRecord#PUT} or {@link LogRecord#DELETE}
 * @param key      the key
 * @param value    the value (empty for DELETE)
 */
public record LedgerEntry(long ledgerId, long entryId, int rangeId, long epoch, int op, byte[] key, byte[] value) {

    /**
     * Tells whether another entry carries the same change under the same id.
     *
     * @param o the other entry
     * @return true if ledger, id, range, epoch, op, key and value are equal
     */
    public boolean sameAs(LedgerEntry o) {
        return ledgerId == o.ledgerId && entryId == o.entryId && rangeId == o.rangeId && epoch == o.epoch
                && op == o.op && Arrays.equals(key, o.key) && Arrays.equals(value, o.value);
    }

    /**
     * Builds the entry a log record carries on the wire (its LSN is the entry id).
     *
     * @param ledgerId the ledger
     * @param record   the record
     * @return the entry
     */
    public static LedgerEntry of(long ledgerId, LogRecord record) {
        return new LedgerEntry(ledgerId, record.lsn(), record.rangeId(), record.epoch(), record.op(), record.key(),
                record.value());
    }

    /**
     * Returns the change as a log record whose LSN is the entry id (what a store applies).
     *
     * @return the record
     */
    public LogRecord toRecord() {
        return new LogRecord(rangeId, epoch, entryId, op, key, value);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LedgerEntry e && sameAs(e);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(ledgerId) * 31 + Long.hashCode(entryId);
    }

    @Override
    public String toString() {
        return "entry " + ledgerId + ":" + entryId;
    }
}
