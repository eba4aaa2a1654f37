package org.autodisk.node.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.autodisk.node.ledger.LedgerStoreContract.entries;
import static org.autodisk.node.ledger.LedgerStoreContract.refusal;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A log node's journal stopped by a disk error opens again by itself once its disk takes writes, as a restart would
 * open it, and not before; meanwhile it refuses every change and still answers reads.
 */
class ReopeningLedgerStoreTest {

    @TempDir
    Path dir;

    private final AtomicBoolean full = new AtomicBoolean();
    private final AtomicBoolean syncFails = new AtomicBoolean();
    private final AtomicInteger probes = new AtomicInteger();
    private ReopeningLedgerStore store;

    private SegmentOptions options() {
        return SegmentOptions.defaults().withSegmentBytes(64 << 10).withPreallocateBytes(4096)
                .withFaultHook(new SegmentOptions.FaultHook() {
                    @Override
                    public void beforeWrite(String stream) throws IOException {
                        if ("writable-probe".equals(stream)) {
                            probes.incrementAndGet();
                        }
                        if (full.get()) {
                            throw new IOException("injected: no space left on device");
                        }
                    }

                    @Override
                    public void beforeSync(Path file) throws IOException {
                        if (syncFails.get() && file.toString().endsWith(".journal")) {
                            throw new IOException("injected: fsync failed");
                        }
                        beforeWrite(file.toString());
                    }
                });
    }

    @AfterEach
    void close() {
        if (store != null) {
            store.close();
        }
    }

    @Test
    void aJournalStoppedByAFullDiskTakesWritesAgainOnceTheDiskDoes() throws Exception {
        store = ReopeningLedgerStore.open("l1", dir.resolve("journal"), options(), Duration.ofMillis(20));
        store.append(7, 1, false, entries(1, 2)).join();
        full.set(true);
        assertThat(refusal(store.append(7, 1, false, entries(3, 4)))).isEqualTo(LedgerException.Kind.UNAVAILABLE);
        await().atMost(Duration.ofSeconds(30)).until(() -> probes.get() >= 3);
        assertThat(store.failure()).as("the disk is still full").contains("no space left");
        assertThat(store.reopened()).isZero();
        assertThat(refusal(store.fence(7))).isEqualTo(LedgerException.Kind.UNAVAILABLE);
        assertThat(store.read(7, 1, 10)).as("reads go on").containsExactlyElementsOf(entries(1, 2));

        full.set(false);
        await().atMost(Duration.ofSeconds(30)).until(() -> store.failure() == null);
        assertThat(store.reopened()).isEqualTo(1);
        assertThat(store.lastEntry(7)).isEqualTo(2);
        assertThat(store.append(7, 1, false, entries(3, 5)).join()).isEqualTo(5);
        assertThat(store.fence(7).join()).isNotNull();
        assertThat(store.stats().entries()).as("counted over both openings").isGreaterThanOrEqualTo(5);

        store.close();
        store = ReopeningLedgerStore.open("l1", dir.resolve("journal"), options(), Duration.ofMillis(20));
        assertThat(store.read(7, 1, 10)).as("a restart reads it all").containsExactlyElementsOf(entries(1, 5));
        assertThat(store.fenced(7)).isTrue();
    }

    /**
     * Entries written but whose fsync failed were answered as failed: the page cache still shows them, but the
     * journal opened again does not take them for durable (it cuts them), so a writer that sends them again has them
     * written and fsynced anew, and a restart finds each once.
     */
    @Test
    void entriesWhoseFsyncFailedAreNotTakenForDurableWhenTheJournalOpensAgain() throws Exception {
        store = ReopeningLedgerStore.open("l1", dir.resolve("journal"), options(), Duration.ofMillis(20));
        store.append(7, 1, false, entries(1, 2)).join();
        syncFails.set(true);
        assertThat(refusal(store.append(7, 1, false, entries(3, 4)))).isEqualTo(LedgerException.Kind.UNAVAILABLE);
        syncFails.set(false);
        await().atMost(Duration.ofSeconds(30)).until(() -> store.failure() == null);
        assertThat(store.lastEntry(7)).as("the unsynced entries are cut").isEqualTo(2);
        long syncs = store.stats().syncs();
        assertThat(store.append(7, 1, false, entries(3, 4)).join()).isEqualTo(4);
        assertThat(store.stats().syncs()).as("written and fsynced anew").isGreaterThan(syncs);
        store.close();
        store = ReopeningLedgerStore.open("l1", dir.resolve("journal"), options(), Duration.ofMillis(20));
        assertThat(store.read(7, 1, 10)).containsExactlyElementsOf(entries(1, 4));
    }
}
