package org.autodisk.bench.faults;

/**
 * One fault of a run's nemesis.
 *
 * @param kind   what it did
 * @param victim the node it did it to
 * @param start  when it began (nanoseconds, the run's clock)
 * @param end    when it was healed
 */
public record FaultWindow(FaultKind kind, String victim, long start, long end) {
}
