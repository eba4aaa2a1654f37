package org.autodisk.node.ledger;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * One record of a log node's journal. Layout: {@code i32 length} (the whole frame), {@code i32 CRC32C} of every byte
 * after it, {@code u8 type}, {@code i64 ledger}, {@code i64 value}, then the payload. An ENTRY's value is its entry
 * id and its payload {@code i32 range, i64 epoch, u8 op, u16 key length, key, i32 value length, value}; a FENCE has
 * no payload; a TRUNCATE's value is the entry below which the ledger is dropped and its payload {@code i64} the last
 * entry the ledger held then; a STATE (first in every segment, ledger 0) lists every truncated or fenced ledger's
 * truncation point, last entry and fence, so that older segments can be deleted without losing them. A length of
 * zero marks the end of what was written (segments are preallocated with zeros).
 *
 * @param type    {@link #ENTRY}, {@link #FENCE}, {@link #TRUNCATE} or {@link #STATE}
 * @param ledger  the ledger (0 for STATE)
 * @param value   entry id, truncation point, or number of ledgers in a STATE
 * @param entry   the entry (ENTRY only)
 * @param last    the ledger's last entry (TRUNCATE only)
 * @param state   ledger to {truncated below, fenced 0/1, last entry} (STATE only)
 * @param length  the frame's length in the journal
 */
record JournalFrame(int type, long ledger, long value, LedgerEntry entry, long last, Map<Long, long[]> state,
        int length) {

    static final int ENTRY = 1;
    static final int FENCE = 2;
    static final int TRUNCATE = 3;
    static final int STATE = 4;

    /** Bytes before the payload. */
    static final int HEADER = 4 + 4 + 1 + 8 + 8;

    private static final int STATE_ITEM = 8 + 8 + 1 + 8;

    static int size(LedgerEntry e) {
        return HEADER + 4 + 8 + 1 + 2 + e.key().length + 4 + e.value().length;
    }

    static void writeEntry(ByteBuffer b, LedgerEntry e) {
        int start = begin(b, size(e), ENTRY, e.ledgerId(), e.entryId());
        b.putInt(e.rangeId()).putLong(e.epoch()).put((byte) e.op()).putShort((short) e.key().length).put(e.key())
                .putInt(e.value().length).put(e.value());
        end(b, start);
    }

    static void writeFence(ByteBuffer b, long ledger) {
        end(b, begin(b, HEADER, FENCE, ledger, 0));
    }

    static void writeTruncate(ByteBuffer b, long ledger, long below, long last) {
        int start = begin(b, HEADER + 8, TRUNCATE, ledger, below);
        b.putLong(last);
        end(b, start);
    }

    static int stateSize(int ledgers) {
        return HEADER + ledgers * STATE_ITEM;
    }

    static void writeState(ByteBuffer b, Map<Long, long[]> state) {
        int start = begin(b, stateSize(state.size()), STATE, 0, state.size());
        state.forEach((ledger, s) -> b.putLong(ledger).putLong(s[0]).put((byte) s[1]).putLong(s[2]));
        end(b, start);
    }

    private static int begin(ByteBuffer b, int length, int type, long ledger, long value) {
        int start = b.position();
        b.putInt(length).putInt(0).put((byte) type).putLong(ledger).putLong(value);
        return start;
    }

    private static void end(ByteBuffer b, int start) {
        CRC32C crc = new CRC32C();
        crc.update(b.slice(start + 8, b.position() - start - 8));
        b.putInt(start + 4, (int) crc.getValue());
    }

    /**
     * Reads the frame at the buffer's position and moves past it.
     *
     * @param b the journal bytes
     * @return the frame; {@code null} at the end of what was written (a zero length, or too few bytes left for a
     *         length); throws {@link IllegalArgumentException} if the bytes there are not a whole, intact frame
     */
    static JournalFrame read(ByteBuffer b) {
        int start = b.position();
        if (b.remaining() < 4 || b.getInt(start) == 0) {
            return null;
        }
        int length = b.getInt(start);
        if (length < HEADER || length > b.remaining()) {
            throw new IllegalArgumentException("a frame of " + length + " bytes with " + b.remaining() + " left");
        }
        CRC32C crc = new CRC32C();
        crc.update(b.slice(start + 8, length - 8));
        if ((int) crc.getValue() != b.getInt(start + 4)) {
            throw new IllegalArgumentException("a CRC mismatch");
        }
        ByteBuffer body = b.slice(start + 8, length - 8);
        JournalFrame f;
        try {
            f = decode(body.get(), body.getLong(), body.getLong(), body, length);
        } catch (java.nio.BufferUnderflowException e) {
            throw new IllegalArgumentException("a frame whose content overruns its length", e);
        }
        if (body.hasRemaining()) {
            throw new IllegalArgumentException("a frame whose content does not fill its length");
        }
        b.position(start + length);
        return f;
    }

    private static JournalFrame decode(int type, long ledger, long value, ByteBuffer b, int length) {
        return switch (type) {
            case ENTRY -> new JournalFrame(type, ledger, value, entry(ledger, value, b), 0, null, length);
            case FENCE -> new JournalFrame(type, ledger, value, null, 0, null, length);
            case TRUNCATE -> new JournalFrame(type, ledger, value, null, b.getLong(), null, length);
            case STATE -> new JournalFrame(type, 0, value, null, 0, state(b, value), length);
            default -> throw new IllegalArgumentException("an unknown frame type " + type);
        };
    }

    private static LedgerEntry entry(long ledger, long id, ByteBuffer b) {
        int range = b.getInt();
        long epoch = b.getLong();
        int op = b.get();
        byte[] key = new byte[Short.toUnsignedInt(b.getShort())];
        b.get(key);
        byte[] value = new byte[b.getInt()];
        b.get(value);
        return new LedgerEntry(ledger, id, range, epoch, op, key, value);
    }

    private static Map<Long, long[]> state(ByteBuffer b, long count) {
        Map<Long, long[]> state = new java.util.HashMap<>();
        for (long i = 0; i < count; i++) {
            state.put(b.getLong(), new long[] {b.getLong(), b.get(), b.getLong()});
        }
        return state;
    }
}
