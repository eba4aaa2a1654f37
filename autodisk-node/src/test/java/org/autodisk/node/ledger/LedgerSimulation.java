package org.autodisk.node.ledger;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.autodisk.node.meta.LedgerInfo;
import org.autodisk.node.meta.LedgerState;
import org.autodisk.node.meta.Member;
import org.autodisk.node.meta.MemberState;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.meta.RangeState;

/**
 * One seeded schedule of the log protocol (after Kafka's raft simulation tests): an owner writing a range through
 * ledgers on three log nodes, its backup caught up from them, and random faults - crashes and restarts of the log
 * nodes, the owner and the backup; lost answers; disk errors; lost metadata answers - then a quiet end where
 * everything is restarted and the owner recovers once more. {@link #run} returns what broke an invariant, or nothing.
 */
final class LedgerSimulation {

    private final long seed;
    private final int multiplicity;
    private final SimWorld world;
    private final SimOwner owner;
    private final SimBackup backup;
    private final Map<String, SimOwner.Outcome> told = new HashMap<>();
    private final List<String> written = new ArrayList<>();
    String outcomes = "";

    LedgerSimulation(long seed, int multiplicity) {
        this.seed = seed;
        this.multiplicity = multiplicity;
        this.world = new SimWorld(seed, initialState());
        for (String id : List.of("l1", "l2", "l3")) {
            world.addLogNode(id);
        }
        this.owner = new SimOwner(world, multiplicity);
        this.backup = new SimBackup(world);
    }

    private static MetaState initialState() {
        List<Member> members = List.of(new Member("d1", "data", "d1:1", MemberState.UP),
                new Member("d2", "data", "d2:1", MemberState.UP), new Member("l1", "log", "l1:1", MemberState.UP),
                new Member("l2", "log", "l2:1", MemberState.UP), new Member("l3", "log", "l3:1", MemberState.UP));
        RangeDescriptor range = new RangeDescriptor(0, new byte[0], null, "d1", List.of("d2"),
                List.of("l1", "l2", "l3"), 1, 1, RangeState.SERVING);
        return new MetaState(1, "range", members, List.of(range), 1,
                new MetaState.Creation(List.of("d1", "d2"), List.of()));
    }

    SimWorld world() {
        return world;
    }

    SimOwner owner() {
        return owner;
    }

    /**
     * Runs the schedule.
     *
     * @param faultyMillis how long faults are injected
     * @return what broke, or {@code null}
     */
    String run(long faultyMillis) {
        world.responseLoss = 0.01;
        world.requestLoss = 0.01;
        world.metadataResultLoss = 0.02;
        owner.start();
        int n = 0;
        while (world.now() < faultyMillis) {
            write("k" + n++);
            if (world.random.nextInt(20) == 0) {
                injectFault();
            }
            world.runUntil(world.now() + 1 + world.random.nextInt(3));
        }
        return settleAndCheck();
    }

    void write(String key) {
        written.add(key);
        owner.write(key, "v-" + key, outcome -> told.put(key, outcome));
    }

    private void injectFault() {
        int what = world.random.nextInt(10);
        List<String> ids = List.of("l1", "l2", "l3");
        SimWorld.SimLogNode node = world.logNodes.get(ids.get(world.random.nextInt(3)));
        switch (what) {
            case 0, 1 -> {
                node.crash();
                world.schedule(20 + world.random.nextInt(200), node::restart);
            }
            case 2 -> {
                node.store.failWrites(true);
                world.schedule(10 + world.random.nextInt(50), () -> node.store.failWrites(false));
            }
            case 3 -> {
                if (owner.up) {
                    owner.crash();
                    world.schedule(10 + world.random.nextInt(100), owner::start);
                }
            }
            case 4 -> backup.crash();
            case 5, 6 -> owner.flush();
            case 7 -> backup.flush();
            default -> backup.catchUp();
        }
        owner.restartIfStopped();
    }

    private String settleAndCheck() {
        world.responseLoss = 0;
        world.requestLoss = 0;
        world.metadataResultLoss = 0;
        world.logNodes.values().forEach(n -> {
            n.store.failWrites(false);
            if (!n.up) {
                n.restart();
            }
        });
        world.runUntil(world.now() + 500);
        owner.crash();
        owner.start();
        world.runUntil(world.now() + 2000);
        if (!owner.serving) {
            return "seed " + seed + ": the owner did not serve again after everything came back";
        }
        backup.catchUp();
        outcomes = told.values().stream().collect(java.util.stream.Collectors.groupingBy(o -> o,
                java.util.TreeMap::new, java.util.stream.Collectors.counting())).toString() + " of " + written.size()
                + " writes, " + world.state().ledgers().size() + " ledgers";
        if (!world.violations.isEmpty()) {
            return "seed " + seed + ": " + world.violations.get(0);
        }
        return new SimChecks(seed, world, told, written).check(owner.data, backup.data);
    }

    /** Every ledger's entries as the log nodes hold them, for the checks. */
    static Map<Long, NavigableMap<Long, LedgerEntry>> union(SimWorld world) {
        Map<Long, NavigableMap<Long, LedgerEntry>> all = new TreeMap<>();
        world.logNodes.values().forEach(n -> n.store.contents().forEach((id, entries) ->
                all.computeIfAbsent(id, x -> new TreeMap<>()).putAll(entries)));
        return all;
    }

    static boolean closed(LedgerInfo l) {
        return l.state() == LedgerState.CLOSED;
    }
}
