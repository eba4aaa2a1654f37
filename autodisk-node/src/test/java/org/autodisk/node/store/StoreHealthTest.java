package org.autodisk.node.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A watched store says since when its writes fail; a write that works does not clear it, a probe does. */
class StoreHealthTest {

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void failingWritesAreTimedFromTheFirstUntilCleared() {
        AtomicLong now = new AtomicLong(5_000_000_000L);
        AtomicBoolean full = new AtomicBoolean();
        StoreHealth health = new StoreHealth(now::get);
        LocalStore store = LocalStores.watched(LocalStores.failingWritesWhile(LocalStores.inMemory(), full::get,
                () -> "disk full (hook)"), health);
        store.put(b("a"), b("1"));
        assertThat(health.failingForMillis()).isZero();
        full.set(true);
        assertThatThrownBy(() -> store.put(b("b"), b("2"))).isInstanceOf(StoreException.class);
        now.addAndGet(2_000_000_000L);
        assertThatThrownBy(store::makeDurable).isInstanceOf(StoreException.class);
        assertThat(health.failingForMillis()).as("from the first failure").isEqualTo(2000);
        assertThat(health.lastError()).contains("disk full (hook)");
        assertThat(store.get(b("a"))).as("reads say nothing").isEqualTo(b("1"));
        assertThat(health.failingForMillis()).isEqualTo(2000);
        full.set(false);
        store.makeDurable();
        assertThat(health.failingForMillis()).as("a write that returns may have touched no disk").isEqualTo(2000);
        health.clear();
        assertThat(health.failingForMillis()).isZero();
    }
}
