package org.autodisk.node.meta;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The listeners of one node's metadata, of commands and of states, told of each applied command in that order; a
 * listener that throws is logged and the others are still told.
 */
final class MetaListeners {

    private static final Logger LOG = LoggerFactory.getLogger(MetaListeners.class);

    private final String nodeId;
    private final List<Consumer<Applied>> commands = new CopyOnWriteArrayList<>();
    private final List<Consumer<MetaState>> states = new CopyOnWriteArrayList<>();

    MetaListeners(String nodeId) {
        this.nodeId = nodeId;
    }

    void onCommands(Consumer<Applied> listener) {
        commands.add(listener);
    }

    void onStates(Consumer<MetaState> listener) {
        states.add(listener);
    }

    /** Tells the command listeners of a command, then the state listeners of the state after it. */
    void tell(Applied applied) {
        tell(commands, applied);
        tell(states, applied.after());
    }

    void clear() {
        commands.clear();
        states.clear();
    }

    private <T> void tell(List<Consumer<T>> to, T what) {
        for (Consumer<T> l : to) {
            try {
                l.accept(what);
            } catch (RuntimeException ex) {
                LOG.error("{}: a metadata listener failed", nodeId, ex);
            }
        }
    }
}
