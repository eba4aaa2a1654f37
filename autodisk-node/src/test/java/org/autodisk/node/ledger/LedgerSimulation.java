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
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.meta.RangeState;

/**
 * One seeded schedule of the log protocol (after Kafka's raft simulation tests): an owner writing a range through
 * ledgers on three log nodes, its backup caught up from them, and random faults - crashes and restarts of the log
 * nodes, the owner and the backup; lost requests and answers; delayed answers; disk errors and stalled fsyncs; a
 * store that fails to apply; lost metadata answers - then a quiet end where everything is restarted and the owner
 * recovers once more. {@link #run} returns what broke an invariant, or nothing.
 * The named scenarios ({@code LedgerScenariosTest}) script their faults on the same world instead, then check the
 * same invariants ({@link #check}, {@link #settleAndCheck}).
 */
final class LedgerSimulation {

    private final long seed;
    private final int multiplicity;
    private final SimWorld world;
    private SimOwner owner;
    private final SimBackup backup;
    private final Map<String, SimOwner.Outcome> told = new HashMap<>();
    private final List<String> written = new ArrayList<>();

    LedgerSimulation(long seed, int multiplicity) {
        this(seed, multiplicity, List.of("l1", "l2", "l3"));
    }

    /**
     * A world with some of the log nodes l1, l2, l3 (in memory; a scenario may add others before the owner starts).
     *
     * @param seed         the seed of the world's random source (link delays, and the faults of {@link #run})
     * @param multiplicity log nodes per entry
     * @param logNodes     the log nodes
     */
    LedgerSimulation(long seed, int multiplicity, List<String> logNodes) {
        this.seed = seed;
        this.multiplicity = multiplicity;
        this.world = new SimWorld(seed, initialState());
        for (String id : logNodes) {
            world.addLogNode(id);
        }
        this.owner = new SimOwner(world, multiplicity);
        this.backup = new SimBackup(world);
    }

    static MetaState initialState() {
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

    SimBackup backup() {
        return backup;
    }

    SimWorld.SimLogNode logNode(String id) {
        return world.logNode(id);
    }

    /** What the client of a write was told; {@code null} while it was told nothing. */
    SimOwner.Outcome told(String key) {
        return told.get(key);
    }

    /** How many writes were told each outcome. */
    Map<SimOwner.Outcome, Long> outcomeCounts() {
        Map<SimOwner.Outcome, Long> counts = new java.util.EnumMap<>(SimOwner.Outcome.class);
        told.values().forEach(o -> counts.merge(o, 1L, Long::sum));
        return counts;
    }

    int writes() {
        return written.size();
    }

    /** Lets the scripted clock run for a while. */
    void runFor(long millis) {
        world.runUntil(world.now() + millis);
    }

    /**
     * Moves the range to another data node (epoch + 1; the old owner becomes its backup): the new owner recovers
     * the old owner's ledger once started. The old owner is not stopped: it goes on as a zombie writer until it
     * finds its ledger fenced, and is retired when it looks at the metadata again.
     *
     * @param newOwner the data node that owns the range from now on
     * @return the old owner
     */
    SimOwner handOver(String newOwner) {
        RangeDescriptor r = world.state().range(0);
        world.metadataFor(() -> true).submit(new MetaCommand.ChangeRange(r.id(), r.epoch(), r.generation(),
                newOwner, List.of(r.owner()), RangeState.SERVING), SimOwner.TIMEOUT);
        runFor(10);
        if (!world.state().range(0).owner().equals(newOwner)) {
            throw new IllegalStateException("the range did not move to " + newOwner + ": " + world.state().range(0));
        }
        SimOwner old = owner;
        owner = new SimOwner(world, multiplicity, newOwner);
        return old;
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
        write(owner, key);
    }

    /** Writes a key through a given owner (a zombie, say); its value is {@code "v-" + key}. */
    void write(SimOwner via, String key) {
        written.add(key);
        via.write(key, "v-" + key, outcome -> told.put(key, outcome));
    }

    /**
     * Catches the backup up, then checks the invariants now (without settling first; the recovered log is that of
     * the closed ledgers, so writes acknowledged in the open ledger are checked once it was recovered).
     *
     * @return what broke, or {@code null}
     */
    String check() {
        backup.catchUp();
        if (!world.violations.isEmpty()) {
            return "seed " + seed + ": " + world.violations.get(0);
        }
        return new SimChecks(seed, world, told, written).check(owner.data, backup.data);
    }

    private void injectFault() {
        int what = world.random.nextInt(13);
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
            case 10 -> {
                world.delayLink(node.id, SimOwner.ID, 20 + world.random.nextInt(130));
                world.schedule(10 + world.random.nextInt(100), () -> world.delayLink(node.id, SimOwner.ID, 0));
            }
            case 11 -> {
                node.store.stall();
                boolean fails = world.random.nextBoolean();
                world.schedule(5 + world.random.nextInt(60), () -> node.store.release(fails));
            }
            case 12 -> owner.failNextApply();
            default -> backup.catchUp();
        }
        owner.restartIfStopped();
    }

    /**
     * Ends a schedule: no more faults, every log node restarted, the owner restarted (it recovers once more), the
     * backup caught up; then checks the invariants.
     *
     * @return what broke, or {@code null}
     */
    String settleAndCheck() {
        world.responseLoss = 0;
        world.requestLoss = 0;
        world.metadataResultLoss = 0;
        world.calm();
        world.logNodes.values().forEach(n -> {
            n.store.failWrites(false);
            n.store.release(false);
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
        return check();
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
