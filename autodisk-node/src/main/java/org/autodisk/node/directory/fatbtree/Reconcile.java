package org.autodisk.node.directory.fatbtree;

import java.util.Arrays;
import org.autodisk.core.Keys;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.RangeDescriptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the next structure change that brings one leaf of the tree in line with the committed metadata: the node the
 * tree names as the leaf's owner carries it out. A leaf of the tree covers one or more ranges of the metadata (ranges
 * split, never merge; the tree follows behind): first the leaf is split where the metadata split it, lowest split
 * first, then moved to the owner the metadata names. Comparing with the newest state rather than replaying commands
 * makes the step the same however many commands this node saw, missed or saw twice (a restart).
 */
final class Reconcile {

    private static final Logger LOG = LoggerFactory.getLogger(Reconcile.class);

    private Reconcile() {
    }

    /**
     * A change to carry out.
     *
     * @param plan    the pages it rewrites
     * @param splitAt the low key of the new leaf for a split, {@code null} for a move
     */
    record Step(StructureChanges.Plan plan, byte[] splitAt) {
    }

    /**
     * Plans the next change for the leaf of the tree that holds a key.
     *
     * @param copies  the planning node's copies
     * @param state   the newest committed metadata the node applied
     * @param changes the structure changes
     * @param key     a key of the leaf
     * @param change  the number the change takes
     * @return the step, or {@code null} if this node's copies do not name it the leaf's owner or the leaf agrees
     */
    static Step next(NodeCopies copies, MetaState state, StructureChanges changes, byte[] key, long change) {
        Page p;
        try {
            p = copies.pathTo(key).get(0);
        } catch (IllegalStateException notHeld) {
            return null;
        }
        int slot = p.slot(key);
        Entry leaf = p.entries().get(slot);
        if (!leaf.copySet().get(0).equals(copies.self()) || !state.bootstrapped()) {
            return null;
        }
        byte[] high = slot + 1 < p.entries().size() ? p.entries().get(slot + 1).low() : p.high();
        RangeDescriptor first = state.rangeOf(leaf.low());
        if (!Arrays.equals(first.low(), leaf.low()) || first.id() != leaf.child()) {
            LOG.error("{}: leaf {} of the tree is not range {} of the metadata at {}; it is left as it is",
                    copies.self(), leaf, first.id(), Keys.render(first.low()));
            return null;
        }
        if (first.high() != null && (high == null || Keys.compare(first.high(), high) < 0)) {
            RangeDescriptor right = state.rangeOf(first.high());
            return new Step(changes.planSplit(copies, leaf.child(), right.low(), right.id(), change), right.low());
        }
        if (!first.owner().equals(copies.self())) {
            return new Step(changes.planMove(copies, leaf.child(), leaf.low(), first.owner(), change), null);
        }
        return null;
    }
}
