package org.autodisk.node.ledger;

import java.util.List;

/** Takes each group a {@link LedgerWriter} acknowledged; the futures of its entries complete when it says so. */
@FunctionalInterface
public interface EntryApplier {

    /**
     * Takes a group; called under the writer's lock, so it must not block.
     *
     * @param entries     acknowledged entries of the ledger, in id order, after every group before them
     * @param acknowledge completes the writer's futures of these entries; to be run once, on any thread (after
     *                    applying them, so that an answer follows the apply)
     */
    void apply(List<LedgerEntry> entries, Runnable acknowledge);
}
