package org.autodisk.node.meta;

/**
 * One committed command as this node applied it, with the states around it: what a listener that follows changes
 * rather than states (the Fat-Btree directory, whose structure changes are carried out in log order) is told.
 *
 * @param command the command, or {@code null} for a gap: this node's state jumped over commands it was not told of
 *                one by one (it loaded a snapshot, or its updates were held back)
 * @param before  this node's state before
 * @param after   its state after; its version is the command's position in the metadata log
 */
public record Applied(MetaCommand command, MetaState before, MetaState after) {

    /**
     * Tells whether commands were skipped between {@code before} and {@code after}.
     *
     * @return true for a gap
     */
    public boolean gap() {
        return command == null;
    }
}
