package org.autodisk.node.meta;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.autodisk.core.Keys;

/**
 * One ledger of a range's log, as the metadata records it (BookKeeper's model): one writer (the range's owner at
 * one epoch), entries with dense ids from 1, and an ensemble per fragment. An entry is acknowledged only once every
 * log node of its fragment's ensemble holds it and every entry before it; an ensemble change starts a new fragment
 * at the first entry not yet acknowledged, so every entry before a fragment lives whole on its own fragment's
 * ensemble.
 *
 * @param id        ledger id, unique in the cluster and never reused
 * @param rangeId   the range it was opened for
 * @param low       the range's low key when it was opened, inclusive
 * @param high      the range's end key when it was opened, exclusive ({@code null}: open-ended)
 * @param epoch     the range's epoch when it was opened
 * @param writer    the data node that writes it
 * @param fragments its fragments, by first entry
 * @param state     open, in recovery or closed
 * @param lastEntry the last entry that belongs to it once closed (0: none); 0 while not closed
 * @param opener    for a ledger a split opened for its writer: the writer's process that asked for the split (a
 *                  number it drew at start), which alone may write it without recovering it first; 0 otherwise
 */
public record LedgerInfo(long id, int rangeId, byte[] low, byte[] high, long epoch, String writer,
        List<Fragment> fragments, LedgerState state, long lastEntry, long opener) {

    /** Copies the list. */
    public LedgerInfo {
        fragments = List.copyOf(fragments);
    }

    /**
     * A ledger its writer opened itself (or a cutover opened for it): no opener recorded.
     *
     * @param id        ledger id
     * @param rangeId   the range
     * @param low       the range's low key
     * @param high      the range's end key
     * @param epoch     the range's epoch
     * @param writer    the writer
     * @param fragments its fragments
     * @param state     its state
     * @param lastEntry its last entry once closed
     */
    @SuppressWarnings("checkstyle:ParameterNumber")
    public LedgerInfo(long id, int rangeId, byte[] low, byte[] high, long epoch, String writer,
            List<Fragment> fragments, LedgerState state, long lastEntry) {
        this(id, rangeId, low, high, epoch, writer, fragments, state, lastEntry, 0);
    }

    /**
     * A run of entries that lives on one ensemble.
     *
     * @param firstEntry its first entry
     * @param ensemble   the log nodes that hold every entry of it (all of them acknowledge an entry)
     */
    public record Fragment(long firstEntry, List<String> ensemble) {

        /** Copies the list. */
        public Fragment {
            ensemble = List.copyOf(ensemble);
        }
    }

    /**
     * Returns the fragment that holds an entry.
     *
     * @param entry the entry id (&ge; 1)
     * @return its fragment
     */
    public Fragment fragmentOf(long entry) {
        Fragment found = fragments.get(0);
        for (Fragment f : fragments) {
            if (f.firstEntry() <= entry) {
                found = f;
            }
        }
        return found;
    }

    /**
     * Returns the last fragment: the one new entries go to.
     *
     * @return the fragment
     */
    @JsonIgnore
    public Fragment lastFragment() {
        return fragments.get(fragments.size() - 1);
    }

    /**
     * Tells whether the ledger may hold changes of keys in a span.
     *
     * @param spanLow  the span's low key, inclusive
     * @param spanHigh its end key, exclusive ({@code null}: open-ended)
     * @return true if the spans overlap
     */
    public boolean overlaps(byte[] spanLow, byte[] spanHigh) {
        boolean startsBeforeEnd = spanHigh == null || Keys.compare(low, spanHigh) < 0;
        boolean endsAfterStart = high == null || Keys.compare(spanLow, high) < 0;
        return startsBeforeEnd && endsAfterStart;
    }

    /**
     * Returns this ledger in another state.
     *
     * @param next the state
     * @param last the last entry (for {@link LedgerState#CLOSED})
     * @return the ledger
     */
    public LedgerInfo in(LedgerState next, long last) {
        return new LedgerInfo(id, rangeId, low, high, epoch, writer, fragments, next, last, opener);
    }

    /**
     * Returns this ledger with a new last fragment; one starting where the last one starts replaces it.
     *
     * @param fragment the fragment
     * @return the ledger
     */
    public LedgerInfo withFragment(Fragment fragment) {
        List<Fragment> next = new ArrayList<>(fragments);
        if (lastFragment().firstEntry() == fragment.firstEntry()) {
            next.remove(next.size() - 1);
        }
        next.add(fragment);
        return new LedgerInfo(id, rangeId, low, high, epoch, writer, next, state, lastEntry, opener);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LedgerInfo l && id == l.id && rangeId == l.rangeId && epoch == l.epoch
                && lastEntry == l.lastEntry && opener == l.opener && writer.equals(l.writer)
                && Arrays.equals(low, l.low) && Arrays.equals(high, l.high) && fragments.equals(l.fragments)
                && state == l.state;
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, state, lastEntry, fragments);
    }

    @Override
    public String toString() {
        return "ledger " + id + " of range " + rangeId + " (writer " + writer + ", epoch " + epoch + ", "
                + state.name().toLowerCase(java.util.Locale.ROOT) + (state == LedgerState.CLOSED ? " at entry "
                + lastEntry : "") + ", ensembles " + fragments.stream().map(f -> f.firstEntry() + ":"
                + f.ensemble()).toList() + ")";
    }
}
