package org.autodisk.bench.faults;

import java.util.ArrayList;
import java.util.List;

/**
 * What a fault run recorded: every operation, and every fault with when it began and ended. Thread-safe.
 */
final class History {

    private final List<Op> ops = new ArrayList<>();
    private final List<FaultWindow> faults = new ArrayList<>();

    synchronized void add(Op op) {
        ops.add(op);
    }

    synchronized void addAll(List<Op> more) {
        ops.addAll(more);
    }

    synchronized void fault(FaultWindow f) {
        faults.add(f);
    }

    synchronized List<Op> ops() {
        return List.copyOf(ops);
    }

    synchronized List<FaultWindow> faults() {
        return List.copyOf(faults);
    }
}
