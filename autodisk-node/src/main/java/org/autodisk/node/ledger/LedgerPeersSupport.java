package org.autodisk.node.ledger;

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
}
