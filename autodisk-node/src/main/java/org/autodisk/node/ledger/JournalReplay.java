package org.autodisk.node.ledger;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rebuilds a journal's index at start-up by reading every segment in order. A frame that is not whole and intact
 * in the newest segment is a write torn by a crash: nothing from there on was acknowledged (an answer waits for the
 * fsync), so the segment is cut there. Anywhere else it is damage to acknowledged data, and the journal refuses to
 * open rather than serve less than it acknowledged.
 *
 * @param ledgers  what is known of each ledger
 * @param contents segment to the last entry of each ledger in it
 * @param entries  entries held
 * @param newest   the newest segment (-1: none)
 */
record JournalReplay(Map<Long, JournalLedger> ledgers, TreeMap<Long, Map<Long, Long>> contents, long entries,
        long newest) {

    private static final Logger LOG = LoggerFactory.getLogger(JournalReplay.class);

    static JournalReplay read(String nodeId, JournalSegments segments) throws IOException {
        Map<Long, JournalLedger> ledgers = new HashMap<>();
        TreeMap<Long, Map<Long, Long>> contents = new TreeMap<>();
        List<Long> all = segments.existing();
        for (long segment : all) {
            Map<Long, Long> lasts = new HashMap<>();
            contents.put(segment, lasts);
            ByteBuffer b = segments.map(segment);
            long end = scan(b, segment, ledgers, lasts);
            if (!zeros(b, (int) end)) {
                damaged(nodeId, segments, segment, end, segment == all.get(all.size() - 1), b);
            }
        }
        long entries = 0;
        for (JournalLedger l : ledgers.values()) {
            l.positions.headMap(l.truncatedBelow).clear();
            entries += l.positions.size();
        }
        return new JournalReplay(ledgers, contents, entries, all.isEmpty() ? -1 : all.get(all.size() - 1));
    }

    /** Whether every byte from an offset on is zero (the preallocated, never written end of a segment). */
    private static boolean zeros(ByteBuffer b, int from) {
        for (int i = from; i < b.limit(); i++) {
            if (b.get(i) != 0) {
                return false;
            }
        }
        return true;
    }

    /** Reads the frames of a segment into the index; returns where the intact frames end. */
    private static long scan(ByteBuffer b, long segment, Map<Long, JournalLedger> ledgers, Map<Long, Long> lasts) {
        while (true) {
            int at = b.position();
            JournalFrame f;
            try {
                f = JournalFrame.read(b);
            } catch (IllegalArgumentException e) {
                return at;
            }
            if (f == null) {
                return at;
            }
            apply(f, JournalLedger.pack(segment, at), ledgers, lasts);
        }
    }

    private static void apply(JournalFrame f, long packed, Map<Long, JournalLedger> ledgers, Map<Long, Long> lasts) {
        if (f.type() == JournalFrame.STATE) {
            f.state().forEach((id, s) -> {
                JournalLedger l = ledgers.computeIfAbsent(id, x -> new JournalLedger());
                l.truncate(s[0]);
                l.fenced |= s[1] != 0;
                l.last = Math.max(l.last, s[2]);
            });
            return;
        }
        JournalLedger l = ledgers.computeIfAbsent(f.ledger(), x -> new JournalLedger());
        switch (f.type()) {
            case JournalFrame.ENTRY -> {
                l.held(f.value(), packed);
                lasts.merge(f.ledger(), f.value(), Math::max);
            }
            case JournalFrame.FENCE -> l.fenced = true;
            default -> {
                l.truncate(f.value());
                l.last = Math.max(l.last, f.last());
            }
        }
    }

    private static void damaged(String nodeId, JournalSegments segments, long segment, long end, boolean newest,
            ByteBuffer b) throws IOException {
        if (!newest) {
            throw new IOException("log node " + nodeId + ": journal segment " + segments.file(segment)
                    + " is damaged at offset " + end + " and is not the newest; refusing to start, as entries after "
                    + "it were acknowledged (restore the log node's disk or replace the log node)");
        }
        LOG.warn("{}: journal segment {} ends in a write torn by a crash at offset {}: {} bytes cut (never "
                + "acknowledged)", nodeId, segments.file(segment), end, b.limit() - end);
        segments.cut(segment, end);
    }
}
