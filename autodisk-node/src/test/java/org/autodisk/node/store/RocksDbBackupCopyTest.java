package org.autodisk.node.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.autodisk.core.Keys;
import org.autodisk.node.wire.LogRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store contract for a backup copy, which keeps no running stream count but counts its keys when asked. */
class RocksDbBackupCopyTest extends LocalStoreContract {

    @TempDir
    Path dir;

    @Override
    protected LocalStore open() {
        return LocalStores.backupCopy(dir.resolve("copies"), false);
    }

    @Override
    protected boolean tellsChanges() {
        return false;
    }

    @Test
    void theCountStaysExactThroughOverwritesAndDeletesOfEntriesAndAfterAReopen() {
        List<LogRecord> entries = new ArrayList<>();
        for (int i = 1; i <= 300; i++) {
            entries.add(new LogRecord(0, 1, i, LogRecord.PUT, Keys.utf8("k" + (i % 100)), Keys.utf8("v" + i)));
        }
        for (int i = 301; i <= 340; i++) {
            entries.add(new LogRecord(0, 1, i, LogRecord.DELETE, Keys.utf8("k" + (i % 60)), new byte[0]));
        }
        store.applyLedger(9, entries);
        assertThat(store.count()).as("100 keys, 40 of them (k1..k40) deleted")
                .isEqualTo(60);
        store.close();
        store = open();
        assertThat(store.count()).isEqualTo(60);
        assertThat(store.appliedEntry(9)).isEqualTo(340);
        assertThat(store.usage(new byte[0], null).keys()).isEqualTo(60);
    }
}
