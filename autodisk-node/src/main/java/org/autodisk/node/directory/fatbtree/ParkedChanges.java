package org.autodisk.node.directory.fatbtree;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import org.autodisk.node.meta.Member;
import org.autodisk.node.meta.MemberState;
import org.autodisk.node.meta.MetaState;

/**
 * The structure changes a node put aside because a member they must lock is declared failed, and what the metadata
 * says of the members: a change is put aside before it writes anything and starts again once that member is up.
 */
final class ParkedChanges {

    /**
     * A change put aside.
     *
     * @param blocker the failed member it must lock
     * @param key     a key of its leaf
     * @param planner its planner ({@code null} for a reconciliation)
     */
    record Parked(String blocker, byte[] key, Function<NodeCopies, StructureChanges.Plan> planner) {
    }

    private final Supplier<MetaState> latest;
    private final List<Parked> parked = new ArrayList<>();

    /**
     * Follows a node's metadata.
     *
     * @param latest the newest metadata the node applied, {@code null} if it follows none (it then knows of no
     *               failed member)
     */
    ParkedChanges(Supplier<MetaState> latest) {
        this.latest = latest;
    }

    boolean failed(String node) {
        return latest != null && MetaRoutes.failed(latest.get(), node);
    }

    /** @return the members declared failed */
    List<String> failedMembers() {
        return latest == null ? List.of() : latest.get().members().stream()
                .filter(m -> m.state() == MemberState.FAILED).map(Member::id).toList();
    }

    void park(Parked p) {
        parked.add(p);
    }

    /** @return the changes whose member is up again, no longer put aside */
    List<Parked> back() {
        List<Parked> out = parked.stream().filter(p -> {
            Member m = latest.get().member(p.blocker());
            return m != null && m.state() == MemberState.UP;
        }).toList();
        parked.removeAll(out);
        return out;
    }

    boolean isEmpty() {
        return parked.isEmpty();
    }
}
