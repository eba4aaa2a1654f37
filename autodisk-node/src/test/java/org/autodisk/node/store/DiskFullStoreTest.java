package org.autodisk.node.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.autodisk.core.protocol.KeyValue;
import org.junit.jupiter.api.Test;

/** The disk-full hook's store: while the disk is full every write fails and changes nothing, and reads go on. */
class DiskFullStoreTest {

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void writesFailWhileTheDiskIsFullAndReadsGoOn() {
        AtomicBoolean full = new AtomicBoolean();
        LocalStore store = LocalStores.failingWritesWhile(LocalStores.inMemory(), full::get, () -> "disk full (hook)");
        store.put(b("a"), b("1"));
        BulkLoad load = store.bulkLoad();
        load.add(List.of(new KeyValue(b("d"), b("4"))));
        full.set(true);
        assertThatThrownBy(() -> load.add(List.of(new KeyValue(b("e"), b("5"))))).as("a load begun before")
                .isInstanceOf(StoreException.class);
        assertThatThrownBy(() -> load.finish(Map.of())).isInstanceOf(StoreException.class);
        load.close();
        assertThatThrownBy(store::bulkLoad).isInstanceOf(StoreException.class);
        assertThatThrownBy(() -> store.put(b("b"), b("2"))).isInstanceOf(StoreException.class)
                .hasMessageContaining("disk full (hook)");
        assertThatThrownBy(() -> store.delete(b("a"))).isInstanceOf(StoreException.class);
        assertThatThrownBy(() -> store.applyLedger(1, List.of())).isInstanceOf(StoreException.class);
        assertThatThrownBy(() -> store.ingest(List.of(new KeyValue(b("c"), b("3"))), Map.of()))
                .isInstanceOf(StoreException.class);
        assertThatThrownBy(() -> store.deleteRange(b("a"), b("z"))).isInstanceOf(StoreException.class);
        assertThatThrownBy(store::makeDurable).isInstanceOf(StoreException.class);
        assertThat(store.get(b("a"))).isEqualTo(b("1"));
        assertThat(store.get(b("b"))).isNull();
        assertThat(store.count()).isEqualTo(1);
        full.set(false);
        store.put(b("b"), b("2"));
        assertThat(store.get(b("b"))).isEqualTo(b("2"));
    }
}
