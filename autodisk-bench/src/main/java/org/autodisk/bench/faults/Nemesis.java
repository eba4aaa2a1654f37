package org.autodisk.bench.faults;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.client.AutoDiskException;

/**
 * The nemesis of a fault run: between calm stretches, one fault at a time on a node of the target, every kind once
 * per round in an order and on victims a seeded random chooses (so a run is replayed from its seed), held for a while
 * and healed: {@code kill -9} of a data node, of a log node, of the metadata leader (restarted on its data), a pause
 * of a data node by SIGSTOP (SIGCONT after), a data node cut off the network (connected again after), a data node
 * cut off from one other node, both ways or one way only, a log node's or a data node's disk full, a log node's fsyncs
 * slow (through the hook files of its {@code fault.hooks-dir}), a node's file system full for real.
 * The fault under way is published for the workers' records.
 */
final class Nemesis {

    /** The hook file that fails a node's writes to its disk ({@code fault.hooks-dir}). */
    static final String DISK_FULL = "disk-full";
    /** The hook file that delays a log node's fsyncs. */
    static final String SLOW_FSYNC = "slow-fsync";
    /** The hook file that makes a data node report its disk that full. */
    static final String DISK_USED = "disk-used-percent";

    private final FaultTarget cluster;
    private final int dataNodes;
    private final Random random;
    private final List<FaultKind> kinds;
    private final Duration calm;
    private final Duration hold;
    private final History history;
    private final LongSupplier clock;
    private volatile String current = "none";
    /** The kinds still to come in this round: every kind once per round, in a seeded order. */
    private final List<FaultKind> next = new ArrayList<>();

    Nemesis(FaultTarget cluster, long seed, List<FaultKind> kinds, Duration calm, Duration hold,
            History history, LongSupplier clock) {
        this.cluster = cluster;
        this.dataNodes = cluster.dataNodes();
        this.random = new Random(seed);
        this.kinds = List.copyOf(kinds);
        this.calm = calm;
        this.hold = hold;
        this.history = history;
        this.clock = clock;
    }

    /** The fault under way, for the workers' records ({@code none} between faults). */
    String current() {
        return current;
    }

    /**
     * Injects faults until a time, each healed before the next, and at least one of every kind however long that
     * takes.
     *
     * @param until the run's clock value to stop at
     * @throws IOException if a node cannot be restarted or signalled
     * @throws InterruptedException if interrupted
     */
    void run(long until) throws IOException, InterruptedException {
        for (int injected = 0; injected < kinds.size() || clock.getAsLong() + calm.toNanos() + hold.toNanos() < until;
                injected++) {
            sleep(calm.toMillis() / 2 + random.nextInt((int) Math.max(1, calm.toMillis())));
            if (next.isEmpty()) {
                next.addAll(kinds);
                Collections.shuffle(next, random);
            }
            FaultKind kind = next.remove(0);
            int victim = victim(kind);
            Link link = kind.ofLink() ? link(kind, victim) : null;
            String id = link == null ? cluster.ids().get(victim) : link.name(cluster.ids());
            long start = clock.getAsLong();
            current = kind.label() + " " + id;
            System.out.printf("faults: %s %s%n", kind.label(), id);
            inject(kind, victim, link);
            try {
                sleep(hold.toMillis() / 2 + random.nextInt((int) Math.max(1, hold.toMillis())));
            } finally {
                heal(kind, victim, link);
                current = "none";
                history.fault(new FaultWindow(kind, id, start, clock.getAsLong()));
            }
        }
    }

    /**
     * The link a partition of one pair cuts: from the victim (a data node) to another node of any role, and back
     * unless one way; which way a one-way cut goes is seeded too.
     */
    private record Link(int from, int to, boolean bothWays) {

        String name(List<String> ids) {
            return ids.get(from) + (bothWays ? "/" : ">") + ids.get(to);
        }
    }

    private Link link(FaultKind kind, int victim) {
        int other = random.nextInt(cluster.ids().size() - 1);
        other = other >= victim ? other + 1 : other;
        if (kind == FaultKind.PARTITION_LINK) {
            return new Link(victim, other, true);
        }
        return random.nextBoolean() ? new Link(victim, other, false) : new Link(other, victim, false);
    }

    private int victim(FaultKind kind) {
        int logNodes = cluster.ids().size() - dataNodes;
        return switch (kind) {
            case KILL_LEADER -> leader();
            default -> kind.ofLogNode() ? dataNodes + random.nextInt(logNodes) : random.nextInt(dataNodes);
        };
    }

    /** The metadata leader, as a node that answers says; a random data node if none says. */
    private int leader() {
        try (AutoDiskClient c = AutoDiskClient.builder().seeds(cluster.seeds())
                .requestTimeout(Duration.ofSeconds(3)).build()) {
            String leader = c.admin().members().leader();
            int i = leader == null ? -1 : cluster.ids().indexOf(leader);
            return i >= 0 ? i : random.nextInt(dataNodes);
        } catch (AutoDiskException e) {
            return random.nextInt(dataNodes);
        }
    }

    private void inject(FaultKind kind, int victim, Link link) throws IOException, InterruptedException {
        if (link != null) {
            cluster.cut(link.from(), link.to());
            if (link.bothWays()) {
                cluster.cut(link.to(), link.from());
            }
            return;
        }
        switch (kind) {
            case PAUSE_DATA -> cluster.pause(victim);
            case PARTITION_DATA -> cluster.isolate(victim);
            case DISK_FULL_LOG, DISK_FULL_DATA -> cluster.hook(victim, DISK_FULL, "");
            case SLOW_FSYNC_LOG -> cluster.hook(victim, SLOW_FSYNC, Integer.toString(100 + random.nextInt(701)));
            case DISK_PRESSURE_DATA -> cluster.hook(victim, DISK_USED, "97");
            case FS_FULL_DATA, FS_FULL_LOG -> cluster.fill(victim);
            default -> cluster.kill(victim);
        }
    }

    private void heal(FaultKind kind, int victim, Link link) throws IOException, InterruptedException {
        if (link != null) {
            cluster.restore(link.from(), link.to());
            if (link.bothWays()) {
                cluster.restore(link.to(), link.from());
            }
            return;
        }
        switch (kind) {
            case PAUSE_DATA -> cluster.resume(victim);
            case PARTITION_DATA -> cluster.reconnect(victim);
            case SLOW_FSYNC_LOG -> cluster.unhook(victim, SLOW_FSYNC);
            case DISK_PRESSURE_DATA -> cluster.unhook(victim, DISK_USED);
            case DISK_FULL_DATA -> cluster.unhook(victim, DISK_FULL);
            // a log node's journal stopped by the full disk opens again by itself once the disk takes writes
            case DISK_FULL_LOG -> cluster.unhook(victim, DISK_FULL);
            case FS_FULL_DATA, FS_FULL_LOG -> cluster.free(victim);
            default -> cluster.restart(victim);
        }
    }

    private static void sleep(long ms) throws InterruptedException {
        TimeUnit.MILLISECONDS.sleep(ms);
    }
}
