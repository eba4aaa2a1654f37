package org.autodisk.node.directory.fatbtree;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import java.util.zip.CRC32C;
import org.autodisk.core.Keys;

/**
 * An index page as every copy holds it: id, level (1 = the entries are leaves), fence keys and entries in key order.
 * All copies of a page are equal; the version rises by one on every rewrite, so a copy never goes back.
 *
 * @param id      the page id
 * @param level   1 above the leaves, one more per level up
 * @param low     the low fence key (inclusive; empty for the left edge)
 * @param high    the high fence key (exclusive; {@code null} for the right edge)
 * @param entries the entries in key order; the first one's low equals the page's low
 * @param version the page's version (one more on every rewrite)
 */
record Page(long id, int level, byte[] low, byte[] high, List<Entry> entries, long version) {

    // copies the entries
    Page {
        entries = List.copyOf(entries);
    }

    /**
     * Tells whether a key falls between the fence keys.
     *
     * @param key the key
     * @return true if {@code low <= key < high}
     */
    boolean covers(byte[] key) {
        return Keys.compare(key, low) >= 0 && (high == null || Keys.compare(key, high) < 0);
    }

    /**
     * Finds the entry whose child covers a key (the last entry whose low is at most the key).
     *
     * @param key a key this page covers
     * @return the entry's index
     */
    int slot(byte[] key) {
        int lo = 0;
        int hi = entries.size() - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (Keys.compare(entries.get(mid).low(), key) <= 0) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /**
     * Finds the entry of a child.
     *
     * @param child the child's id
     * @return its index, or -1
     */
    int indexOf(long child) {
        for (int i = 0; i < entries.size(); i++) {
            if (entries.get(i).child() == child) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Returns the page's copy set as its parent records it: the union of its entries' copy sets.
     *
     * @return the nodes, sorted
     */
    List<String> copySet() {
        TreeSet<String> all = new TreeSet<>();
        entries.forEach(e -> all.addAll(e.copySet()));
        return List.copyOf(all);
    }

    /**
     * Returns the page with other entries and fence keys, written by a change.
     *
     * @param nextLow     the low fence
     * @param nextHigh    the high fence
     * @param nextEntries the entries
     * @param nextVersion the version it is written at
     * @param nextId      the page id
     * @return the page
     */
    Page rewritten(long nextId, byte[] nextLow, byte[] nextHigh, List<Entry> nextEntries, long nextVersion) {
        return new Page(nextId, level, nextLow, nextHigh, nextEntries, nextVersion);
    }

    /**
     * Returns the entries with the one at {@code index} replaced by {@code replacement}.
     *
     * @param index       the entry
     * @param replacement its replacement (one or more entries)
     * @return a new list
     */
    List<Entry> replacing(int index, List<Entry> replacement) {
        List<Entry> out = new ArrayList<>(entries.subList(0, index));
        out.addAll(replacement);
        out.addAll(entries.subList(index + 1, entries.size()));
        return out;
    }

    /**
     * Returns a checksum of the entries (low keys, children, copy sets): equal copies have equal digests.
     *
     * @return eight hex digits of a CRC-32C
     */
    String digest() {
        CRC32C crc = new CRC32C();
        ByteBuffer b = ByteBuffer.allocate(12);
        for (Entry e : entries) {
            crc.update(b.clear().putInt(e.low().length).putLong(e.child()).flip());
            crc.update(e.low());
            crc.update(String.join(",", e.copySet()).getBytes(StandardCharsets.UTF_8));
        }
        return String.format("%08x", crc.getValue());
    }

    /**
     * Returns the bytes this page takes.
     *
     * @param withCopySets whether copy sets are kept
     * @return header, fences and entries
     */
    int bytes(boolean withCopySets) {
        int size = 8 + 1 + 2 + low.length + 2 + (high == null ? 0 : high.length) + 8;
        for (Entry e : entries) {
            size += e.bytes(withCopySets);
        }
        return size;
    }

    /**
     * Tells whether two copies have the same content.
     *
     * @param o the other copy
     * @return true if id, level, fences, entries and version agree
     */
    boolean sameAs(Page o) {
        return id == o.id && level == o.level && Arrays.equals(low, o.low) && Arrays.equals(high, o.high)
                && entries.equals(o.entries) && version == o.version;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Page p && sameAs(p);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, version);
    }

    @Override
    public String toString() {
        return "page " + id + " L" + level + " [" + Keys.render(low) + ", " + (high == null ? "end" : Keys.render(high))
                + ") v" + version + " " + entries;
    }
}
