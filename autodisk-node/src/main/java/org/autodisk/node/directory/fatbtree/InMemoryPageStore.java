package org.autodisk.node.directory.fatbtree;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** A page store in memory that outlives the directory using it, so a test can restart a node over it. */
final class InMemoryPageStore implements PageStore {

    private final Map<Long, Page> pages = new TreeMap<>();
    private final Map<Long, Map<String, PageBatch>> pending = new TreeMap<>();
    private long root = -1;
    private long reserved;
    private final Map<Long, Kept> kept = new TreeMap<>();
    private final Map<String, List<Long>> released = new TreeMap<>();

    @Override
    public synchronized Contents load() {
        Map<Long, Map<String, PageBatch>> p = new LinkedHashMap<>();
        pending.forEach((c, b) -> p.put(c, Map.copyOf(b)));
        return new Contents(Map.copyOf(pages), root, p, reserved);
    }

    @Override
    public synchronized void write(List<Page> puts, List<Long> removed, long root) {
        puts.forEach(p -> pages.put(p.id(), p));
        removed.forEach(pages::remove);
        if (root >= 0) {
            this.root = root;
        }
    }

    @Override
    public synchronized void pending(long change, Map<String, PageBatch> batches) {
        pending.put(change, new LinkedHashMap<>(batches));
    }

    @Override
    public synchronized void done(long change) {
        pending.remove(change);
    }

    @Override
    public synchronized void reserve(long upTo) {
        reserved = Math.max(reserved, upTo);
    }

    @Override
    public synchronized Records records() {
        return new Records(Map.copyOf(kept), Map.copyOf(released));
    }

    @Override
    public synchronized void keep(long change, Kept record) {
        kept.put(change, record);
    }

    @Override
    public synchronized void released(String coordinator, long change, List<Long> last) {
        kept.remove(change);
        released.put(coordinator, List.copyOf(last));
    }

    @Override
    public synchronized void forget(String coordinator, List<Long> changes) {
        changes.forEach(kept::remove);
        released.remove(coordinator);
    }

    @Override
    public void sync() {
    }

    @Override
    public void close() {
    }
}
