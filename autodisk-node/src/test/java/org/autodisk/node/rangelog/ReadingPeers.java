package org.autodisk.node.rangelog;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.autodisk.node.ledger.LedgerEntry;
import org.autodisk.node.ledger.LedgerPeers;

/** Log nodes that only answer reads (the tests of a slot's replay): appends, fences and confirmations fail. */
abstract class ReadingPeers implements LedgerPeers {

    @Override
    public CompletableFuture<Long> append(String logNode, long ledgerId, long fragmentStart, boolean recovery,
            long lac, List<LedgerEntry> entries) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException("append"));
    }

    @Override
    public CompletableFuture<Fenced> fence(String logNode, long ledgerId) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException("fence"));
    }

    @Override
    public CompletableFuture<List<Long>> confirm(String logNode, List<Long> ledgerIds) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException("confirm"));
    }
}
