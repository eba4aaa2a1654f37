package org.autodisk.node.directory;

import java.util.concurrent.atomic.AtomicReference;

/** The range-partitioned {@link Directory}: one atomically replaced {@link RangeMap}. */
final class RangeDirectory implements Directory {

    private final AtomicReference<RangeMap> map;

    RangeDirectory(RangeMap initial) {
        this.map = new AtomicReference<>(initial);
    }

    @Override
    public RangeMap current() {
        return map.get();
    }

    @Override
    public boolean install(RangeMap candidate) {
        RangeMap now = map.get();
        while (candidate.version() > now.version()) {
            if (map.compareAndSet(now, candidate)) {
                return true;
            }
            now = map.get();
        }
        return false;
    }
}
