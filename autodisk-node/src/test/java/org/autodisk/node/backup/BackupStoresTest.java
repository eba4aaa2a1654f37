package org.autodisk.node.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.autodisk.core.Keys;
import org.autodisk.node.store.LocalStore;
import org.autodisk.node.store.LocalStores;
import org.autodisk.node.store.StoreException;
import org.autodisk.node.store.StoreHealth;
import org.autodisk.node.wire.LogRecord;
import org.junit.jupiter.api.Test;

class BackupStoresTest {

    @Test
    void aFailedWriteOfTheCopyCountsInTheNodesStoreHealthAlsoAfterTheCopyWasReplaced() {
        StoreHealth health = new StoreHealth(System::nanoTime);
        AtomicBoolean full = new AtomicBoolean(true);
        try (BackupStores backups = new BackupStores(null, false, copy -> LocalStores.watched(
                LocalStores.failingWritesWhile(copy, full::get, () -> "No space left on device"), health))) {
            LocalStore copy = backups.copy();
            List<LogRecord> entry = List.of(new LogRecord(0, 1, 1, LogRecord.PUT, Keys.utf8("k"), Keys.utf8("v")));
            assertThatThrownBy(() -> copy.applyLedger(7, entry)).isInstanceOf(StoreException.class);
            assertThat(health.lastError()).contains("No space left on device");
            health.clear();
            backups.loseUnflushed();
            assertThatThrownBy(() -> backups.copy().applyLedger(7, entry)).isInstanceOf(StoreException.class);
            assertThat(health.lastError()).contains("No space left on device");
            full.set(false);
            backups.copy().applyLedger(7, entry);
            assertThat(backups.copy().appliedEntry(7)).isEqualTo(1);
        }
    }
}
