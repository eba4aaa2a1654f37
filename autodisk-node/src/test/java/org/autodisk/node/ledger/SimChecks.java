package org.autodisk.node.ledger;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import org.autodisk.node.meta.LedgerInfo;
import org.autodisk.node.wire.LogRecord;

/**
 * The invariants every schedule must keep, checked once it has settled (a scenario may check them on the way too):
 * no entry id carries two contents; no closed ledger has a hole, nor any log node's copy of a fragment; at most one
 * ledger of the range is open; every acknowledged write is in the recovered log and no write reported failed is on
 * any log node; the owner's store and the backup equal the recovered log (so every OUTCOME_UNKNOWN write is settled
 * the same everywhere). Checked as they happen (in {@link SimWorld#violations}): an acknowledged entry is held by
 * every log node of its fragment; the owner and the backup never apply an entry past one they did not apply.
 */
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
        if (problem == null) {
            problem = noHoleOnALogNode();
        }
        if (problem != null) {
            return "seed " + seed + ": " + problem;
        }
        Map<String, String> log = settledLog();
        Set<String> held = keysHeld();
        for (String key : written) {
            SimOwner.Outcome o = told.getOrDefault(key, SimOwner.Outcome.UNKNOWN);
            if (o == SimOwner.Outcome.ACKNOWLEDGED && !("v-" + key).equals(log.get(key))) {
                return "seed " + seed + ": acknowledged write " + key + " is not in the recovered log";
            }
            if (o == SimOwner.Outcome.FAILED && held.contains(key)) {
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

    /**
     * Every log node of a fragment holds, of the fragment's entries in the closed ledger, a run from the fragment's
     * first entry on (or none): no log node's copy has a hole either.
     */
    private String noHoleOnALogNode() {
        Map<String, Map<Long, NavigableMap<Long, LedgerEntry>>> held = new HashMap<>();
        world.logNodes.forEach((id, n) -> held.put(id, n.store.contents()));
        for (LedgerInfo l : world.state().ledgers()) {
            List<LedgerInfo.Fragment> fragments = l.fragments();
            for (int i = 0; LedgerSimulation.closed(l) && i < fragments.size(); i++) {
                long first = fragments.get(i).firstEntry();
                long end = Math.min(l.lastEntry(), i + 1 < fragments.size() ? fragments.get(i + 1).firstEntry() - 1
                        : l.lastEntry());
                for (String node : end < first ? List.<String>of() : fragments.get(i).ensemble()) {
                    NavigableMap<Long, LedgerEntry> all = held.get(node).getOrDefault(l.id(), new TreeMap<>());
                    NavigableMap<Long, LedgerEntry> run = all.subMap(first, true, end, true);
                    if (!run.isEmpty() && run.lastKey() - first + 1 != run.size()) {
                        return "log node " + node + " holds entries " + run.keySet() + " of the fragment from entry "
                                + first + " of closed " + l + ": a hole";
                    }
                }
            }
        }
        return null;
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

    /** The keys of every entry any log node holds. */
    private Set<String> keysHeld() {
        Set<String> keys = new HashSet<>();
        LedgerSimulation.union(world).values().forEach(entries -> entries.values().forEach(e -> keys.add(
                new String(e.key()))));
        return keys;
    }

    private static String diff(Map<String, String> a, Map<String, String> b) {
        Set<String> keys = new HashSet<>(a.keySet());
        keys.addAll(b.keySet());
        return keys.stream().filter(k -> !java.util.Objects.equals(a.get(k), b.get(k))).sorted().limit(5)
                .map(k -> k + ": " + a.get(k) + " vs " + b.get(k)).toList() + ", " + a.size() + " vs " + b.size()
                + " keys";
    }
}
