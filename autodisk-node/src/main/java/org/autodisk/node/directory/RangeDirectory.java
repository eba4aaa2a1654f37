package org.autodisk.node.directory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.autodisk.core.Keys;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.RangeDescriptor;

/**
 * The range-partitioned {@link Directory}: the committed metadata's whole range table, replaced atomically, so a
 * key's owner is always known and a request is forwarded at most once (more only while maps disagree).
 */
final class RangeDirectory implements Directory {

    private final String selfId;
    private final AtomicReference<MetaState> state = new AtomicReference<>(MetaState.EMPTY);

    RangeDirectory(String selfId) {
        this.selfId = selfId;
    }

    @Override
    public boolean ready() {
        return state.get().bootstrapped();
    }

    @Override
    public Placement locate(byte[] key) {
        MetaState s = state.get();
        return placement(s.rangeOf(key), s.version());
    }

    private Placement placement(RangeDescriptor r, long version) {
        boolean here = r.owner().equals(selfId);
        return new Placement(r, here, here ? null : r.owner(), version);
    }

    @Override
    public List<Placement> cover(byte[] from, byte[] toExclusive) {
        MetaState s = state.get();
        List<Placement> out = new ArrayList<>();
        List<RangeDescriptor> ranges = s.ranges();
        for (int i = ranges.indexOf(s.rangeOf(from)); i < ranges.size(); i++) {
            RangeDescriptor r = ranges.get(i);
            if (toExclusive != null && Keys.compare(r.low(), toExclusive) >= 0) {
                break;
            }
            out.add(placement(r, s.version()));
        }
        return out;
    }

    @Override
    public long version() {
        return state.get().version();
    }

    @Override
    public void apply(MetaState next) {
        MetaState now = state.get();
        while (next.version() > now.version() || !now.bootstrapped() && next.bootstrapped()) {
            if (state.compareAndSet(now, next)) {
                return;
            }
            now = state.get();
        }
    }

    @Override
    public String kind() {
        return "range";
    }
}
