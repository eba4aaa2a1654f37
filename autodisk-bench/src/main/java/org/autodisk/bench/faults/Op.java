package org.autodisk.bench.faults;

/**
 * One operation a worker ran on one key, as the history records it.
 *
 * @param worker   the worker
 * @param kind     write, delete or read
 * @param key      the key's index
 * @param value    the value written (unique), or the value read ({@code null}: absent), or {@code null} for a delete
 * @param invoke   when it was invoked (nanoseconds, the run's clock)
 * @param complete when it returned
 * @param outcome  how it ended
 * @param fault    the fault under way when it was invoked ({@code none} between faults)
 */
public record Op(int worker, Kind kind, int key, String value, long invoke, long complete, Outcome outcome,
        String fault) {

    /** What an operation does. */
    public enum Kind {
        /** Insert a unique value. */
        WRITE,
        /** Delete the key. */
        DELETE,
        /** Read the key. */
        READ
    }

    /** How an operation ended. */
    public enum Outcome {
        /** Acknowledged (a read: answered). */
        OK,
        /** Refused before it was carried out: it took no effect. */
        FAIL,
        /** A write whose outcome is unknown: it may take effect, at any time after its invocation. */
        INFO
    }

    /**
     * Tells whether the operation changes the key (a write or a delete).
     *
     * @return true for a write or a delete
     */
    public boolean mutates() {
        return kind != Kind.READ;
    }

    /**
     * Returns when the operation took effect at the latest, for ordering: its return if acknowledged, never for an
     * unknown outcome (it may take effect any time later).
     *
     * @return nanoseconds, or {@link Long#MAX_VALUE}
     */
    public long effectiveBy() {
        return outcome == Outcome.OK ? complete : Long.MAX_VALUE;
    }
}
