package org.autodisk.node.lifecycle;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a node opened, step by step, released in reverse order: at shutdown, or at once when a later step of the
 * start-up fails, so that a node that could not start holds no port, lock, file or thread. A fault hook can make
 * any step fail (tests of that release).
 */
public final class Resources implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Resources.class);

    private final String nodeId;
    private final Predicate<StartupStep> failAt;
    private final Deque<Opened> opened = new ArrayDeque<>();

    private record Opened(String name, Runnable close) {
    }

    /**
     * Creates an empty stack.
     *
     * @param nodeId the node, for log lines
     * @param failAt the fault hook: a step for which it is true fails before it opens anything
     */
    public Resources(String nodeId, Predicate<StartupStep> failAt) {
        this.nodeId = nodeId;
        this.failAt = failAt;
    }

    /**
     * Runs a start-up step and remembers how to release what it opened.
     *
     * @param step   the step
     * @param opener opens the resource
     * @param closer releases it
     * @param <T>    the resource's type
     * @return the resource
     */
    public <T> T open(StartupStep step, Supplier<T> opener, Consumer<T> closer) {
        if (failAt.test(step)) {
            throw new IllegalStateException("node " + nodeId + ": start-up step " + step + " failed (fault injected)");
        }
        T resource = opener.get();
        opened.push(new Opened(step.name().toLowerCase(java.util.Locale.ROOT), () -> closer.accept(resource)));
        return resource;
    }

    /**
     * Runs a start-up step that opens nothing to release.
     *
     * @param step   the step
     * @param action what it does
     */
    public void run(StartupStep step, Runnable action) {
        open(step, () -> {
            action.run();
            return step;
        }, s -> { });
    }

    /**
     * Tells how many resources are open.
     *
     * @return the count
     */
    public int size() {
        return opened.size();
    }

    /** Releases everything opened, last first; a failure is logged and the rest still released. */
    @Override
    public void close() {
        while (!opened.isEmpty()) {
            Opened o = opened.pop();
            try {
                o.close().run();
            } catch (RuntimeException e) {
                LOG.warn("{}: releasing {} failed: {}", nodeId, o.name(), e.toString());
            }
        }
    }
}
