package org.autodisk.node.data;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.autodisk.node.store.DiskProbe;
import org.autodisk.node.store.LocalStore;
import org.autodisk.node.store.StoreHealth;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides when a data node keeps silent in the failure detection because its store takes no writes: once the store's
 * writes have failed for {@code store.failover-after-ms}, a probe on a thread of its own writes and fsyncs a file
 * beside the store and flushes the store; only a probe that works clears the failure (a write that happens to touch
 * no disk says nothing), and the node keeps silent while probes fail, or while one takes longer than two seconds
 * (a disk that hangs). A probe is started at most once a second.
 */
final class StoreSilence {

    private static final Logger LOG = LoggerFactory.getLogger(StoreSilence.class);
    private static final long PROBE_EVERY_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long PROBE_PATIENCE_NANOS = TimeUnit.SECONDS.toNanos(2);
    private static final String PROBE = "store-probe";
    private static final int PROBE_BYTES = 64 << 10;

    private final String self;
    private final LocalStore store;
    private final StoreHealth health;
    private final Path dir;
    private final long afterMs;
    private final LongSupplier nanos;
    private boolean probing;
    private long probeStarted;
    private boolean lastFailed;
    private boolean silent;

    StoreSilence(String self, LocalStore store, StoreHealth health, Path dir, long afterMs, LongSupplier nanos) {
        this.self = self;
        this.store = store;
        this.health = health;
        this.dir = dir;
        this.afterMs = afterMs;
        this.nanos = nanos;
    }

    /**
     * Says why the node keeps silent now.
     *
     * @return the reason, or {@code null}
     */
    synchronized String why() {
        if (afterMs <= 0 || health.failingForMillis() < afterMs) {
            silent = false;
            return null;
        }
        long now = nanos.getAsLong();
        if (!probing && (!lastFailed || now - probeStarted >= PROBE_EVERY_NANOS)) {
            probing = true;
            probeStarted = now;
            Thread.ofPlatform().name(self + "-store-probe").daemon().start(this::probe);
        }
        boolean hangs = probing && now - probeStarted >= PROBE_PATIENCE_NANOS;
        silent = lastFailed || hangs || silent && probing;
        return silent ? "its store's writes have failed for " + health.failingForMillis() + " ms ("
                + health.lastError() + ")" : null;
    }

    private void probe() {
        boolean worked = false;
        try {
            writeProbeFile();
            store.makeDurable();
            worked = true;
        } catch (IOException | RuntimeException e) {
            LOG.debug("{}: the store still takes no writes: {}", self, e.toString());
        }
        synchronized (this) {
            probing = false;
            lastFailed = !worked;
            if (worked) {
                health.clear();
            }
        }
    }

    private void writeProbeFile() throws IOException {
        DiskProbe.write(dir.resolve(PROBE), PROBE_BYTES, DiskProbe.Step.NONE, DiskProbe.Step.NONE);
    }
}
