package org.autodisk.node.rangelog;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.autodisk.node.ledger.LedgerPeers;
import org.autodisk.node.ledger.LedgerTimer;
import org.autodisk.node.ledger.WriterSettings;
import org.autodisk.node.meta.Metadata;
import org.autodisk.node.store.LocalStore;
import org.autodisk.node.store.LocalStores;

/**
 * The ranges' log of data node d1 over an in-memory store, with the metadata and log nodes a test gives (no log node
 * is probed: a slot that gets as far as opening its ledger fails there), for tests of a slot's start and replay.
 */
final class SlotHarness implements AutoCloseable {

    final ScheduledExecutorService clock = Executors.newSingleThreadScheduledExecutor();
    final ExecutorService slow = Executors.newSingleThreadExecutor();
    final LocalStore store = LocalStores.inMemory();
    final ApplyThread apply = new ApplyThread("d1", store);

    RangeLedgers ledgers(Metadata metadata, LedgerPeers peers, CutoverLedgers cutovers) {
        SlotContext ctx = new SlotContext("d1", metadata, peers, LedgerTimer.on(clock), new WriterSettings(1,
                Duration.ofSeconds(2), Duration.ofSeconds(2), Duration.ZERO), store, apply, null, List.of("l1"),
                cutovers, () -> null, slow, Duration.ZERO, CopiesInto.NONE, 0);
        return new RangeLedgers(ctx, List.of("l1"), Duration.ofSeconds(1), clock, slow);
    }

    @Override
    public void close() {
        apply.close();
        clock.shutdownNow();
        slow.shutdownNow();
    }
}
