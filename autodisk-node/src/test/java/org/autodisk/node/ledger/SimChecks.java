package org.autodisk.node.ledger;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import org.autodisk.node.meta.LedgerInfo;
import org.autodisk.node.wire.LogRecord;

/** The invariants every schedule must keep, checked once it has settled. */
final class SimChecks {

    private final long seed;
    private final SimWorld world;
    private final Map<String, SimOwner.Outcome> told;
    private final List<String> written;

    SimChecks(long seed, SimWorld world, Map<String, SimOwner.Outcome> told, List<String> written) {
        this.seed = seed;
        this.world = world;
        this.told = told;
        this.written = written;
    }

    String check(Map<String, String> owner, Map<String, String> backup) {
        String problem = oneContentPerEntry();
        if (problem == null) {
            problem = noHoles();
        }
        if (problem != null) {
            return "seed " + seed + ": " + problem;
        }
        Map<String, String> log = settledLog();
        for (String key : written) {
            SimOwner.Outcome o = told.getOrDefault(key, SimOwner.Outcome.UNKNOWN);
            if (o == SimOwner.Outcome.ACKNOWLEDGED && !("v-" + key).equals(log.get(key))) {
                return "seed " + seed + ": acknowledged write " + key + " is not in the recovered log";
            }
            if (o == SimOwner.Outcome.FAILED && anywhere(key)) {
                return "seed " + seed + ": write " + key + " was reported failed but a log node holds it";
            }
        }
        if (!owner.equals(log)) {
            return "seed " + seed + ": the owner's store differs from the log (" + diff(owner, log) + ")";
        }
        if (!backup.equals(log)) {
            return "seed " + seed + ": the backup differs from the log (" + diff(backup, log) + ")";
        }
        return null;
    }

    private String oneContentPerEntry() {
        Map<String, LedgerEntry> seen = new HashMap<>();
        for (SimWorld.SimLogNode n : world.logNodes.values()) {
            for (NavigableMap<Long, LedgerEntry> entries : n.store.contents().values()) {
                for (LedgerEntry e : entries.values()) {
                    LedgerEntry before = seen.putIfAbsent(e.ledgerId() + ":" + e.entryId(), e);
                    if (before != null && !before.sameAs(e)) {
                        return e + " carries two contents";
                    }
                }
            }
        }
        return null;
    }

    private String noHoles() {
        for (LedgerInfo l : world.state().ledgers()) {
            if (!LedgerSimulation.closed(l)) {
                continue;
            }
            for (long e = 1; e <= l.lastEntry(); e++) {
                if (!heldInFragment(l, e)) {
                    return "closed " + l + " has a hole at entry " + e;
                }
            }
        }
        long open = world.state().ledgers().stream().filter(l -> !LedgerSimulation.closed(l)).count();
        return open > 1 ? open + " ledgers of one range are open" : null;
    }

    private boolean heldInFragment(LedgerInfo l, long entry) {
        for (String node : l.fragmentOf(entry).ensemble()) {
            NavigableMap<Long, LedgerEntry> held = world.logNodes.get(node).store.contents().get(l.id());
            if (held != null && held.containsKey(entry)) {
                return true;
            }
        }
        return false;
    }

    /** The range's contents by the closed ledgers, in ledger and entry order. */
    private Map<String, String> settledLog() {
        Map<Long, NavigableMap<Long, LedgerEntry>> all = LedgerSimulation.union(world);
        Map<String, String> out = new HashMap<>();
        for (LedgerInfo l : world.state().ledgers()) {
            if (!LedgerSimulation.closed(l)) {
                continue;
            }
            for (long e = 1; e <= l.lastEntry(); e++) {
                LedgerEntry entry = all.get(l.id()).get(e);
                if (entry.op() == LogRecord.PUT) {
                    out.put(new String(entry.key()), new String(entry.value()));
                } else {
                    out.remove(new String(entry.key()));
                }
            }
        }
        return out;
    }

    private boolean anywhere(String key) {
        for (NavigableMap<Long, LedgerEntry> entries : LedgerSimulation.union(world).values()) {
            for (LedgerEntry e : entries.values()) {
                if (new String(e.key()).equals(key)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static String diff(Map<String, String> a, Map<String, String> b) {
        Set<String> keys = new HashSet<>(a.keySet());
        keys.addAll(b.keySet());
        return keys.stream().filter(k -> !java.util.Objects.equals(a.get(k), b.get(k))).sorted().limit(5)
                .map(k -> k + ": " + a.get(k) + " vs " + b.get(k)).toList() + ", " + a.size() + " vs " + b.size()
                + " keys";
    }
}
