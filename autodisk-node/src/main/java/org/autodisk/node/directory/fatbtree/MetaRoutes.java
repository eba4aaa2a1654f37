package org.autodisk.node.directory.fatbtree;

import java.util.List;
import org.autodisk.core.Keys;
import org.autodisk.node.directory.Placement;
import org.autodisk.node.meta.Member;
import org.autodisk.node.meta.MemberState;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.RangeDescriptor;

/** Where a Fat-Btree node routes by the metadata instead of its copies: around failed members, and past its own. */
final class MetaRoutes {

    private MetaRoutes() {
    }

    /**
     * The node to forward to: the hop the copies name, or the metadata's owner of the key's range when the copies
     * name a member declared failed (its leaves went to their backups, and the tree is changed only where that node
     * takes part in the change: it follows when the node returns, see docs/directory.md).
     */
    static String reachable(MetaState state, String hop, byte[] key) {
        return failed(state, hop) ? state.rangeOf(key).owner() : hop;
    }

    /** Whether the metadata declares a member failed. */
    static boolean failed(MetaState state, String node) {
        Member m = state.member(node);
        return m != null && m.state() == MemberState.FAILED;
    }

    /**
     * The placement of the rest of an interval: its next hop, after the ranges node {@code self} owns at its start
     * when the hop falls back on the metadata's owner there and that is {@code self} (a failed member's former ranges).
     */
    static void rest(String self, MetaState state, String hop, byte[] from, byte[] toExclusive, List<Placement> out) {
        byte[] at = from;
        String next = hop;
        while (self.equals(next) && at != null && (toExclusive == null || Keys.compare(at, toExclusive) < 0)) {
            RangeDescriptor own = state.rangeOf(at);
            out.add(new Placement(own, true, null, state.version()));
            at = own.high();
            next = at == null ? null : state.rangeOf(at).owner();
        }
        if (next != null && (toExclusive == null || Keys.compare(at, toExclusive) < 0)) {
            out.add(new Placement(null, false, next, state.version()));
        }
    }
}
