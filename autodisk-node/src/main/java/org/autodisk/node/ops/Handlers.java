package org.autodisk.node.ops;

import java.util.EnumMap;
import java.util.Map;

/** The operations a node serves, as its roles register them, each with where it runs. */
public final class Handlers {

    /** Where a handler runs. */
    public enum Mode {
        /** On a worker of the request queue, after waiting its turn. */
        QUEUED,
        /** On the network thread that decoded it; the handler must only hand work on and never block. */
        INLINE
    }

    /** A registered handler. */
    record Entry(OperationHandler handler, Mode mode) {
    }

    private final Map<Operation, Entry> entries = new EnumMap<>(Operation.class);

    /**
     * Registers the handler of an operation, run on a worker.
     *
     * @param op      the operation
     * @param handler its handler
     * @return this
     */
    public Handlers serve(Operation op, OperationHandler handler) {
        return serve(op, handler, Mode.QUEUED);
    }

    /**
     * Registers the handler of an operation.
     *
     * @param op      the operation
     * @param handler its handler
     * @param mode    where it runs
     * @return this
     * @throws IllegalStateException if the operation already has a handler
     */
    public Handlers serve(Operation op, OperationHandler handler, Mode mode) {
        if (entries.putIfAbsent(op, new Entry(handler, mode)) != null) {
            throw new IllegalStateException(op + " has a handler already");
        }
        return this;
    }

    Entry get(Operation op) {
        return entries.get(op);
    }
}
