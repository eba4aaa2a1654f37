package org.autodisk.node.ledger;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.autodisk.node.meta.LedgerInfo;

/**
 * Reads a run of a ledger's entries, each from a log node of the fragment that holds it, trying the next log node
 * of that ensemble when one fails or comes back short. Fails if some entry of the run is held by none that answers:
 * the caller never goes on past a hole.
 */
public final class LedgerReader {

    private static final int PAGE = 1000;

    private final LedgerPeers peers;

    /**
     * Creates a reader.
     *
     * @param peers the log nodes
     */
    public LedgerReader(LedgerPeers peers) {
        this.peers = peers;
    }

    /**
     * Reads entries {@code from..to} of a ledger.
     *
     * @param ledger the ledger (its fragments say where each entry lives)
     * @param from   the first entry
     * @param to     the last entry
     * @return every entry of the run, in order; fails with {@link LedgerException} (UNAVAILABLE) if one is missing
     */
    public CompletableFuture<List<LedgerEntry>> read(LedgerInfo ledger, long from, long to) {
        return next(ledger, from, to, new ArrayList<>());
    }

    private CompletableFuture<List<LedgerEntry>> next(LedgerInfo ledger, long from, long to, List<LedgerEntry> out) {
        if (from > to) {
            return CompletableFuture.completedFuture(out);
        }
        LedgerInfo.Fragment f = ledger.fragmentOf(from);
        int max = (int) Math.min(PAGE, to - from + 1);
        return page(ledger, f.ensemble(), 0, from, max).thenCompose(page -> {
            out.addAll(page);
            return next(ledger, from + page.size(), to, out);
        });
    }

    private CompletableFuture<List<LedgerEntry>> page(LedgerInfo ledger, List<String> ensemble, int i, long from,
            int max) {
        if (i >= ensemble.size()) {
            return CompletableFuture.failedFuture(new LedgerException(LedgerException.Kind.UNAVAILABLE, "entry "
                    + from + " of ledger " + ledger.id() + " is held by no log node of " + ensemble + " that answers"));
        }
        return peers.read(ensemble.get(i), ledger.id(), from, max)
                .handle((page, err) -> err == null && !page.isEmpty() ? CompletableFuture.completedFuture(page)
                        : page(ledger, ensemble, i + 1, from, max))
                .thenCompose(f -> f);
    }
}
