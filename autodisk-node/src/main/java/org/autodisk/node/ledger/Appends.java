package org.autodisk.node.ledger;

import java.util.List;

/** The one rule every {@link LedgerStore} applies to an append: no hole, ever. */
final class Appends {

    private Appends() {
    }

    /**
     * Checks that entries continue a ledger on a log node.
     *
     * @param ledgerId      the ledger
     * @param fragmentStart the first entry of the fragment the log node holds them in
     * @param last          the last entry it holds (0: none)
     * @param entries       the entries
     * @return what is wrong, or {@code null}
     */
    static String problem(long ledgerId, long fragmentStart, long last, List<LedgerEntry> entries) {
        if (entries.isEmpty()) {
            return null;
        }
        for (int i = 0; i < entries.size(); i++) {
            LedgerEntry e = entries.get(i);
            if (e.ledgerId() != ledgerId || e.entryId() != entries.get(0).entryId() + i) {
                return "ledger " + ledgerId + ": the entries of an append must be consecutive entries of it";
            }
        }
        long first = entries.get(0).entryId();
        if (first <= last + 1 || first == fragmentStart && fragmentStart > last) {
            return null;
        }
        return "ledger " + ledgerId + ": entry " + first + " would leave a hole after entry " + last
                + " (its fragment here starts at " + fragmentStart + ")";
    }
}
