package org.autodisk.node.fault;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.autodisk.node.config.NodeConfig;
import org.autodisk.node.config.NodeConfigKeys;
import org.autodisk.node.ledger.SegmentOptions;
import org.autodisk.node.store.DiskSpace;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fault hooks driven by files in a directory ({@code fault.hooks-dir}), so a fault run can turn a fault on and off in a
 * running process or container: {@code disk-full} present fails every write to the disk as a full disk would (a log
 * node's journal, a data node's store); {@code slow-fsync} holding a number of milliseconds adds that much to every
 * fsync of a log node's journal; {@code disk-used-percent} holding a percentage makes a data node report its disk
 * that full (what the balance rules read; nothing is written). The files are looked at when they are asked about,
 * at most every {@link #REFRESH_NANOS}. Thread-safe.
 */
public final class FaultFiles implements SegmentOptions.FaultHook {

    private static final Logger LOG = LoggerFactory.getLogger(FaultFiles.class);
    /** How often the files are looked at again. */
    static final long REFRESH_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** The longest fsync delay taken from a file. */
    static final long MAX_DELAY_MS = 60_000;

    private final String nodeId;
    private final Path diskFull;
    private final Path slowFsync;
    private final Path diskUsed;
    private final LongSupplier nanos;
    private long checkedAt;
    private boolean full;
    private long delayMs;
    private double usedPercent = -1;
    private String warned = "";

    /**
     * Hooks driven by the files of a directory.
     *
     * @param nodeId this node, for messages
     * @param dir    the directory (need not exist)
     * @param nanos  the monotonic clock
     */
    public FaultFiles(String nodeId, Path dir, LongSupplier nanos) {
        this.nodeId = nodeId;
        this.diskFull = dir.resolve("disk-full");
        this.slowFsync = dir.resolve("slow-fsync");
        this.diskUsed = dir.resolve("disk-used-percent");
        this.nanos = nanos;
        this.checkedAt = nanos.getAsLong() - REFRESH_NANOS;
    }

    /**
     * Returns the hooks a node's configuration asks for.
     *
     * @param config the node's configuration
     * @return the hooks of its {@code fault.hooks-dir} (relative to its data directory), or empty if it names none
     */
    public static Optional<FaultFiles> of(NodeConfig config) {
        String dir = config.get(NodeConfigKeys.FAULT_HOOKS_DIR);
        return dir.isEmpty() ? Optional.empty()
                : Optional.of(new FaultFiles(config.nodeId(), config.dataDir().resolve(dir), System::nanoTime));
    }

    @Override
    public void beforeWrite(String stream) throws IOException {
        if (diskFull()) {
            throw new IOException(diskFullMessage());
        }
    }

    /** @return true while the {@code disk-full} file says every write fails */
    public synchronized boolean diskFull() {
        refresh();
        return full;
    }

    /** @return the message of a write the {@code disk-full} hook failed */
    public String diskFullMessage() {
        return "No space left on device (fault hook " + diskFull + ")";
    }

    @Override
    public void beforeSync(Path file) throws IOException {
        long delay = fsyncDelayMs();
        if (delay > 0) {
            try {
                TimeUnit.MILLISECONDS.sleep(delay);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted in the fault hook's delay of an fsync of " + file);
            }
        }
    }

    /** @return what the hook adds to the next fsync, in milliseconds, as the files say now */
    public synchronized long fsyncDelayMs() {
        refresh();
        return delayMs;
    }

    private void refresh() {
        long now = nanos.getAsLong();
        if (now - checkedAt < REFRESH_NANOS) {
            return;
        }
        checkedAt = now;
        boolean wasFull = full;
        long wasDelay = delayMs;
        full = Files.exists(diskFull);
        delayMs = delay();
        double wasUsed = usedPercent;
        usedPercent = usedPercent();
        if (usedPercent != wasUsed) {
            LOG.warn("{}: fault hook {}: the disk is reported {}", nodeId, diskUsed, usedPercent < 0
                    ? "as measured again" : usedPercent + " % full");
        }
        if (full != wasFull) {
            LOG.warn("{}: fault hook {}: writes to the disk {}", nodeId, diskFull, full ? "fail as on a full disk"
                    : "are no longer failed by the hook");
        }
        if (delayMs != wasDelay) {
            LOG.warn("{}: fault hook {}: every fsync of the journal now takes {} ms more", nodeId, slowFsync, delayMs);
        }
    }

    private long delay() {
        String text;
        try {
            text = Files.readString(slowFsync, StandardCharsets.UTF_8).trim();
        } catch (NoSuchFileException e) {
            return 0;
        } catch (IOException e) {
            LOG.warn("{}: fault hook {} cannot be read: {}", nodeId, slowFsync, e.toString());
            return delayMs;
        }
        try {
            return Math.min(MAX_DELAY_MS, Math.max(0, Long.parseLong(text)));
        } catch (NumberFormatException e) {
            if (!text.equals(warned)) {
                warned = text;
                LOG.warn("{}: fault hook {} holds '{}', not milliseconds: no delay", nodeId, slowFsync, text);
            }
            return 0;
        }
    }

    /**
     * Returns the disk as the {@code disk-used-percent} hook says, when it is on.
     *
     * @param measured the disk as measured ({@code null}: not measurable)
     * @return the same total with the hook's share free, or {@code measured} when the hook is off
     */
    public synchronized DiskSpace disk(DiskSpace measured) {
        refresh();
        if (usedPercent < 0 || measured == null) {
            return measured;
        }
        return new DiskSpace((long) (measured.totalBytes() * (100 - usedPercent) / 100), measured.totalBytes());
    }

    private double usedPercent() {
        String text;
        try {
            text = Files.readString(diskUsed, StandardCharsets.UTF_8).trim();
        } catch (NoSuchFileException e) {
            return -1;
        } catch (IOException e) {
            LOG.warn("{}: fault hook {} cannot be read: {}", nodeId, diskUsed, e.toString());
            return usedPercent;
        }
        try {
            double p = Double.parseDouble(text);
            if (p >= 0 && p <= 100) {
                return p;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        if (!text.equals(warned)) {
            warned = text;
            LOG.warn("{}: fault hook {} holds '{}', not a percentage: the disk is reported as measured", nodeId,
                    diskUsed, text);
        }
        return -1;
    }
}
