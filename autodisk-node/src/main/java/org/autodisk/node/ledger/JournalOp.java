package org.autodisk.node.ledger;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One accepted change waiting for the journal's next group commit: entries of a ledger, a fence or a truncation.
 * The writer thread encodes it, notes where each entry went, and hands it back to the store once durable.
 */
final class JournalOp {

    static final JournalOp STOP = new JournalOp(0, 0, List.of(), 0, 0);

    final int type;
    final long ledgerId;
    final List<LedgerEntry> entries;
    final long value;
    /** TRUNCATE: the ledger's last durable entry when it was asked. */
    final long last;
    final CompletableFuture<Long> future = new CompletableFuture<>();
    /** Writer thread: the segment the frames went to, and each entry's offset in it. */
    long segment;
    final long[] offsets;

    JournalOp(int type, long ledgerId, List<LedgerEntry> entries, long value, long last) {
        this.type = type;
        this.ledgerId = ledgerId;
        this.entries = entries;
        this.value = value;
        this.last = last;
        this.offsets = new long[entries.size()];
    }

    int bytes() {
        if (type != JournalFrame.ENTRY) {
            return type == JournalFrame.TRUNCATE ? JournalFrame.HEADER + 8 : JournalFrame.HEADER;
        }
        int n = 0;
        for (LedgerEntry e : entries) {
            n += JournalFrame.size(e);
        }
        return n;
    }

    /**
     * Encodes the frames into the group's buffer.
     *
     * @param b          the buffer
     * @param segment    the segment it is written to
     * @param baseOffset the segment offset of the buffer's position 0
     */
    void encode(ByteBuffer b, long segment, long baseOffset) {
        this.segment = segment;
        if (type == JournalFrame.FENCE) {
            JournalFrame.writeFence(b, ledgerId);
            return;
        }
        if (type == JournalFrame.TRUNCATE) {
            JournalFrame.writeTruncate(b, ledgerId, value, last);
            return;
        }
        for (int i = 0; i < entries.size(); i++) {
            offsets[i] = baseOffset + b.position();
            JournalFrame.writeEntry(b, entries.get(i));
        }
    }
}
