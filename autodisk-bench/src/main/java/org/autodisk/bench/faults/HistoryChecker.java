package org.autodisk.bench.faults;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Checks a recorded history key by key, each key a register with unique written values, as a linearizable register
 * must behave. Sound (every anomaly it reports is one) but not complete (a full linearizability search is not made):
 * <ul>
 *   <li>a read returns only a value some write wrote, never that of a write refused before it took effect, nor of
 *       a write invoked after the read returned;</li>
 *   <li>a read is not stale: if a write or delete was acknowledged before the read began, and it began after the
 *       write of the value read was acknowledged, the read went back in time (this finds lost acknowledged writes:
 *       the reads after the faults healed return what survived);</li>
 *   <li>reads do not go back: a read that began after another read returned does not return a value whose write
 *       was acknowledged before the other read's write began.</li>
 * </ul>
 * A write with an unknown outcome may take effect any time after it was invoked; a read of "absent" may be served
 * by the initial state or any delete not refused.
 */
public final class HistoryChecker {

    /** The initial state of every key: absent since before the run. */
    private static final Op INITIAL = new Op(-1, Op.Kind.DELETE, -1, null, Long.MIN_VALUE, Long.MIN_VALUE,
            Op.Outcome.OK, "none");

    /**
     * An anomaly: what is wrong and the operations that show it.
     *
     * @param key  the key
     * @param what what is wrong
     * @param ops  the operations involved
     */
    public record Anomaly(int key, String what, List<Op> ops) {
    }

    private HistoryChecker() {
    }

    /**
     * Checks a history.
     *
     * @param history every operation, in any order
     * @return the anomalies found (none for a correct history)
     */
    public static List<Anomaly> check(List<Op> history) {
        Map<Integer, List<Op>> byKey = new TreeMap<>();
        history.forEach(op -> byKey.computeIfAbsent(op.key(), k -> new ArrayList<>()).add(op));
        List<Anomaly> out = new ArrayList<>();
        byKey.forEach((key, ops) -> out.addAll(new KeyCheck(key, ops).run()));
        return out;
    }

    /** The checks of one key. */
    private static final class KeyCheck {

        private final int key;
        private final List<Op> reads = new ArrayList<>();
        private final List<Op> acknowledged = new ArrayList<>();
        private final Map<String, Op> writes = new HashMap<>();
        private final Map<String, Op> refused = new HashMap<>();
        private final List<Op> absentSources = new ArrayList<>(List.of(INITIAL));
        private final List<Anomaly> found = new ArrayList<>();

        KeyCheck(int key, List<Op> ops) {
            this.key = key;
            for (Op op : ops) {
                if (op.kind() == Op.Kind.READ) {
                    if (op.outcome() == Op.Outcome.OK) {
                        reads.add(op);
                    }
                } else if (op.outcome() == Op.Outcome.FAIL) {
                    if (op.kind() == Op.Kind.WRITE) {
                        refused.put(op.value(), op);
                    }
                } else {
                    if (op.kind() == Op.Kind.WRITE) {
                        writes.put(op.value(), op);
                    } else {
                        absentSources.add(op);
                    }
                    if (op.outcome() == Op.Outcome.OK) {
                        acknowledged.add(op);
                    }
                }
            }
        }

        List<Anomaly> run() {
            reads.forEach(this::source);
            stale();
            backwards();
            return found;
        }

        /** The write a read's value came from must exist, not be refused, and not begin after the read. */
        private void source(Op r) {
            if (r.value() == null) {
                return;
            }
            Op w = writes.get(r.value());
            if (w == null) {
                Op failed = refused.get(r.value());
                found.add(new Anomaly(key, failed != null ? "a read returned the value of a write that was refused"
                        : "a read returned a value no write wrote", failed != null ? List.of(failed, r) : List.of(r)));
            } else if (w.invoke() > r.complete()) {
                found.add(new Anomaly(key, "a read returned a value before its write began", List.of(w, r)));
            }
        }

        /** No read returns what an acknowledged mutation that began after its source's acknowledgement replaced. */
        private void stale() {
            List<Op> byComplete = new ArrayList<>(acknowledged);
            byComplete.sort(Comparator.comparingLong(Op::complete));
            List<Op> byInvoke = new ArrayList<>(reads);
            byInvoke.sort(Comparator.comparingLong(Op::invoke));
            int i = 0;
            Op latest = null;
            for (Op r : byInvoke) {
                for (; i < byComplete.size() && byComplete.get(i).complete() < r.invoke(); i++) {
                    Op x = byComplete.get(i);
                    latest = latest == null || x.invoke() > latest.invoke() ? x : latest;
                }
                if (latest != null && !servable(r, latest.invoke())) {
                    found.add(new Anomaly(key, "a stale read: it began after " + latest.kind().name().toLowerCase()
                            + " of " + latest.value() + " was acknowledged, which began after what it returned was "
                            + "acknowledged", List.of(latest, r)));
                }
            }
        }

        /** Reads do not go back: none returns what was acknowledged before an earlier read's write began. */
        private void backwards() {
            List<Op> byComplete = new ArrayList<>(reads);
            byComplete.sort(Comparator.comparingLong(Op::complete));
            List<Op> byInvoke = new ArrayList<>(reads);
            byInvoke.sort(Comparator.comparingLong(Op::invoke));
            int i = 0;
            Op seen = null;
            for (Op r : byInvoke) {
                for (; i < byComplete.size() && byComplete.get(i).complete() < r.invoke(); i++) {
                    Op w = byComplete.get(i).value() == null ? null : writes.get(byComplete.get(i).value());
                    seen = w != null && (seen == null || w.invoke() > seen.invoke()) ? w : seen;
                }
                if (seen != null && !servable(r, seen.invoke())) {
                    found.add(new Anomaly(key, "a read went back in time: an earlier read returned " + seen.value()
                            + ", written after what this one returned was acknowledged", List.of(seen, r)));
                }
            }
        }

        /** Whether some source of what a read returned may have taken effect at or after a time. */
        private boolean servable(Op r, long since) {
            if (r.value() != null) {
                Op w = writes.get(r.value());
                return w == null || w.effectiveBy() >= since;
            }
            return absentSources.stream().anyMatch(s -> s.invoke() < r.complete() && s.effectiveBy() >= since);
        }
    }
}
