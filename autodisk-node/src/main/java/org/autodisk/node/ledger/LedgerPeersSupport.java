package org.autodisk.node.ledger;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** Small helpers shared by the ledger protocol's parts. */
final class LedgerPeersSupport {

    private LedgerPeersSupport() {
    }

    /**
     * Unwraps the failure of a future.
     *
     * @param err what the future failed with
     * @return the underlying exception, as a runtime exception
     */
    static RuntimeException cause(Throwable err) {
        Throwable t = err;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t instanceof RuntimeException r ? r : new LedgerException(LedgerException.Kind.UNAVAILABLE,
                String.valueOf(t.getMessage()));
    }

    /**
     * Grows an ensemble towards the multiplicity with log nodes that are up, in preference order.
     *
     * @param ensemble     the log nodes kept
     * @param excluded     log nodes not to take
     * @param up           the log nodes believed reachable, in preference order
     * @param multiplicity how many the ensemble should have
     * @return the ensemble, grown as far as the nodes up allow
     */
    static List<String> grown(List<String> ensemble, Set<String> excluded, List<String> up, int multiplicity) {
        List<String> next = new ArrayList<>(ensemble);
        up.stream().filter(n -> !next.contains(n) && !excluded.contains(n))
                .limit(Math.max(0, multiplicity - next.size())).forEach(next::add);
        return next;
    }
}
