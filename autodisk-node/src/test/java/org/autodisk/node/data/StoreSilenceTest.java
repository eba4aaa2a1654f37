package org.autodisk.node.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.autodisk.node.store.LocalStore;
import org.autodisk.node.store.LocalStores;
import org.autodisk.node.store.StoreException;
import org.autodisk.node.store.StoreHealth;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A data node keeps silent only once its store's writes have failed for the set time and a probe of the disk fails
 * too; a probe that works ends it, and a failure long past that a probe shows over never silences it.
 */
class StoreSilenceTest {

    @TempDir
    Path dir;

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final AtomicBoolean full = new AtomicBoolean();
    private final StoreHealth health = new StoreHealth(now::get);
    private final LocalStore store = LocalStores.watched(LocalStores.failingWritesWhile(LocalStores.inMemory(),
            full::get, () -> "disk full (hook)"), health);
    private StoreSilence silence;

    @BeforeEach
    void silence() {
        silence = new StoreSilence("d1", store, health, dir, 30_000, now::get);
    }

    private void failAWrite() {
        assertThatThrownBy(() -> store.put("k".getBytes(StandardCharsets.UTF_8), new byte[1]))
                .isInstanceOf(StoreException.class);
    }

    @Test
    void silentWhileTheProbesFailAndSpeakingOnceOneWorks() {
        full.set(true);
        failAWrite();
        now.addAndGet(29_000_000_000L);
        assertThat(silence.why()).as("not yet").isNull();
        now.addAndGet(1_000_000_000L);
        await().atMost(Duration.ofSeconds(30)).until(() -> silence.why() != null);
        assertThat(silence.why()).contains("disk full (hook)");
        full.set(false);
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            now.addAndGet(1_000_000_000L); // a probe at most once a second
            return silence.why() == null;
        });
        assertThat(health.failingForMillis()).isZero();
    }

    @Test
    void aFailureThatIsOverByTheDeadlineNeverSilences() {
        full.set(true);
        failAWrite();
        full.set(false);
        now.addAndGet(31_000_000_000L);
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            assertThat(silence.why()).as("speaks while the probe runs, and after it worked").isNull();
            return health.failingForMillis() == 0;
        });
    }
}
