package org.autodisk.rules;

import java.util.function.BooleanSupplier;

/**
 * A client asked to insert (or replace) a key. Whether the key exists already ({@link #replace()}) is looked up
 * only when a rule reads it, and once: an insert under rules that never ask costs no read of the store.
 *
 * @param requestId the node's handle for the request
 * @param key the key as text
 * @param valueSize the value's size in bytes
 * @param ownerIsLocal whether this node owns the key's range
 * @param rangeId the range the key falls in
 * @param hops how many nodes forwarded the request already
 * @param existing answers whether the key exists already (see {@link #replace()})
 */
public record InsertRequested(String requestId, String key, int valueSize, boolean ownerIsLocal, int rangeId,
        int hops, Existing existing) implements RequestEvent {

    /**
     * An insert whose key is known to exist or not.
     *
     * @param requestId the node's handle for the request
     * @param key the key as text
     * @param valueSize the value's size in bytes
     * @param ownerIsLocal whether this node owns the key's range
     * @param rangeId the range the key falls in
     * @param hops how many nodes forwarded the request already
     * @param replace whether the key exists already, so the insert would replace its value
     */
    public InsertRequested(String requestId, String key, int valueSize, boolean ownerIsLocal, int rangeId,
            int hops, boolean replace) {
        this(requestId, key, valueSize, ownerIsLocal, rangeId, hops, new Existing(() -> replace));
    }

    /**
     * An insert of a key that is not known to exist.
     *
     * @param requestId the node's handle for the request
     * @param key the key as text
     * @param valueSize the value's size in bytes
     * @param ownerIsLocal whether this node owns the key's range
     * @param rangeId the range the key falls in
     * @param hops how many nodes forwarded the request already
     */
    public InsertRequested(String requestId, String key, int valueSize, boolean ownerIsLocal, int rangeId,
            int hops) {
        this(requestId, key, valueSize, ownerIsLocal, rangeId, hops, false);
    }

    /**
     * Whether the key exists already, so the insert would replace its value (rules read it as {@code replace}).
     * Looked up on the first call only.
     *
     * @return true if the key exists already
     */
    public boolean replace() {
        return existing.get();
    }

    /**
     * Whether the key exists, asked of the store on first use and remembered. Thread-safe: besides the thread that
     * evaluates the rules, Drools may evaluate a constraint on its own compiling thread; the lookup runs at most once,
     * and not at all once {@link #seal sealed} (the request decided: the store may be closing by then).
     */
    public static final class Existing {
        private BooleanSupplier lookup; // null once sealed
        private Boolean known;          // null while not asked

        /**
         * A lookup made on first use.
         *
         * @param lookup answers whether the key exists
         */
        public Existing(BooleanSupplier lookup) {
            this.lookup = lookup;
        }

        /**
         * Whether the key exists: the lookup's first answer (false if it was never asked before the seal).
         *
         * @return true if the key exists
         */
        public synchronized boolean get() {
            if (known == null && lookup != null) {
                known = lookup.getAsBoolean();
            }
            return Boolean.TRUE.equals(known);
        }

        /** Ends the lookups: called once the rules decided, after which nothing asks the store any more. */
        public synchronized void seal() {
            lookup = null;
        }

        @Override
        public synchronized String toString() {
            return known == null ? "not looked up" : known ? "exists" : "absent";
        }
    }
}
