package org.autodisk.bench.faults;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.client.AutoDiskException;
import org.autodisk.core.cluster.MembersReport;
import org.autodisk.core.cluster.RangeStatus;

/**
 * One run of the fault-injection suite on a local cluster: start it, let the workers read and write while the
 * nemesis injects its seeded faults, heal everything, wait until the cluster settles (every member up, every range
 * serving with one owner and a backup, no migration under way), read every key through every data node, and check the
 * history.
 */
public final class FaultRun {

    /**
     * What a run does.
     *
     * @param dir         where the cluster lives
     * @param basePort    the first node's port
     * @param dataNodes   data nodes (at least 2, for failover)
     * @param logNodes    log nodes
     * @param multiplicity log nodes per entry
     * @param workers     client workers
     * @param keys        keys they share
     * @param duration    how long faults are injected
     * @param seed        the nemesis's and workers' seed
     * @param kinds       the faults injected
     * @param calm        about how long between faults
     * @param hold        about how long a fault lasts
     * @param directory   the cluster's directory: {@code range}, or {@code fat-btree} (then twelve ranges under index
     *                    pages of fanout 3: three levels on three data nodes)
     * @param extra       more node settings for every node ({@code --set}), over the run's own
     */
    public record Settings(Path dir, int basePort, int dataNodes, int logNodes, int multiplicity, int workers,
            int keys, Duration duration, long seed, List<FaultKind> kinds, Duration calm, Duration hold,
            String directory, Map<String, ?> extra) {

        /** Copies the list and the map. */
        public Settings {
            kinds = List.copyOf(kinds);
            extra = Map.copyOf(extra);
        }

        /** @return every node's settings for this run */
        Map<String, Object> nodeSettings() {
            Map<String, Object> out = new HashMap<>(Map.of("wal.multiplicity", multiplicity,
                    "balance.check-ms", 3000, "fault.hooks-dir", HOOKS_DIR, "cluster.directory", directory));
            if ("fat-btree".equals(directory)) {
                out.put("directory.fanout", 3);
                out.put("cluster.split-points", IntStream.rangeClosed(1, 11)
                        .mapToObj(i -> String.format("0x%02x", i * 0x15)).toList());
            }
            out.putAll(extra);
            return out;
        }

        /** @return what the workers and the nemesis do, without the local cluster's layout */
        public Schedule schedule() {
            return new Schedule(workers, keys, duration, seed, kinds, calm, hold);
        }
    }

    /**
     * What the workers and the nemesis do on any target.
     *
     * @param workers  client workers
     * @param keys     keys they share
     * @param duration how long faults are injected
     * @param seed     the nemesis's and workers' seed
     * @param kinds    the faults injected
     * @param calm     about how long between faults
     * @param hold     about how long a fault lasts
     */
    public record Schedule(int workers, int keys, Duration duration, long seed, List<FaultKind> kinds, Duration calm,
            Duration hold) {

        /** Copies the list. */
        public Schedule {
            kinds = List.copyOf(kinds);
        }
    }

    /** The {@code fault.hooks-dir} of the nodes of a fault run, under their data directories. */
    public static final String HOOKS_DIR = "faults";
    /** How long the cluster may take to settle after the faults healed. */
    private static final Duration SETTLE = Duration.ofSeconds(120);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(5);

    private FaultRun() {
    }

    /**
     * Every fault kind the nemesis knows.
     *
     * @return the kinds
     */
    public static List<FaultKind> allKinds() {
        return List.of(FaultKind.values());
    }

    /**
     * Every fault kind a cluster of local processes can be given without root: all but the file systems filled for
     * real (its partitions go through a proxy, which needs Linux).
     *
     * @return the kinds
     */
    public static List<FaultKind> localKinds() {
        return allKinds().stream().filter(k -> !k.fillsFileSystem()).toList();
    }

    /**
     * Every fault kind the container cluster can be given: all but the partitions of one link ({@code docker network
     * disconnect} cuts a container off every other) and the file systems filled for real.
     *
     * @return the kinds
     */
    public static List<FaultKind> containerKinds() {
        return allKinds().stream().filter(k -> !k.ofLink() && !k.fillsFileSystem()).toList();
    }

    /**
     * Runs the suite.
     *
     * @param s what to run
     * @return what happened and what the checker found
     * @throws IllegalArgumentException if it partitions the network where the proxy cannot tell nodes apart (not
     *                                  Linux)
     * @throws IOException if the cluster cannot be started or a node restarted
     * @throws InterruptedException if interrupted
     */
    public static FaultSummary run(Settings s) throws IOException, InterruptedException {
        try (LocalTarget target = LocalTarget.start(s, s.nodeSettings())) {
            return run(target, s.schedule());
        }
    }

    /**
     * Runs the suite on a running cluster.
     *
     * @param target the cluster and how to inject faults into it
     * @param s      what the workers and the nemesis do
     * @return what happened and what the checker found
     * @throws IllegalArgumentException if the target cannot inject a kind of fault asked for
     * @throws IOException if a node cannot be restarted
     * @throws InterruptedException if interrupted
     */
    public static FaultSummary run(FaultTarget target, Schedule s) throws IOException, InterruptedException {
        s.kinds().stream().filter(k -> !target.supports(k)).findFirst().ifPresent(k -> {
            throw new IllegalArgumentException(k.label() + " cannot be injected into " + target + ": "
                    + (k.ofLink() || k.fillsFileSystem() ? "local processes can (./autodisk bench faults)"
                    : "the container cluster can (ContainerFaultsIT)"));
        });
        s.kinds().stream().filter(k -> k.ofLogNode() && target.ids().size() == target.dataNodes()).findFirst()
                .ifPresent(k -> {
                    throw new IllegalArgumentException(k.label() + " needs a log node; the cluster has none");
                });
        long t0 = System.nanoTime();
        History history = new History();
        List<String> seeds = target.seeds();
        Nemesis nemesis = new Nemesis(target, s.seed(), s.kinds(), s.calm(), s.hold(), history, System::nanoTime);
        Workers workers = new Workers(seeds, s.keys(), s.seed(), nemesis::current, System::nanoTime, history,
                REQUEST_TIMEOUT);
        workers.start(s.workers());
        try {
            nemesis.run(System.nanoTime() + s.duration().toNanos());
        } finally {
            workers.close();
        }
        List<String> unsettled = settle(seeds, target.dataNodes());
        for (String seed : seeds) {
            history.addAll(workers.readAll(seed));
        }
        List<Op> ops = history.ops();
        return new FaultSummary(s.seed(), ops, history.faults(), HistoryChecker.check(ops), unsettled,
                Duration.ofNanos(System.nanoTime() - t0));
    }

    /**
     * Waits until every member is up, every range serves on one owner with a backup, no migration is under way and,
     * under the Fat-Btree, every node's index copies agree with each other and the metadata ({@link DirectoryCheck}).
     *
     * @param seeds     the data nodes
     * @param dataNodes how many there are (with one, no range has a backup)
     * @return what is still not so when the time is up (nothing once settled)
     * @throws InterruptedException if interrupted
     */
    public static List<String> settle(List<String> seeds, int dataNodes) throws InterruptedException {
        long deadline = System.nanoTime() + SETTLE.toNanos();
        List<String> problems = List.of("not asked yet");
        try (AutoDiskClient client = AutoDiskClient.builder().seeds(seeds).requestTimeout(REQUEST_TIMEOUT).build()) {
            while (!problems.isEmpty() && System.nanoTime() < deadline) {
                try {
                    problems = problems(client, dataNodes);
                } catch (AutoDiskException e) {
                    problems = List.of("the cluster did not answer: " + e.getMessage());
                }
                if (!problems.isEmpty()) {
                    TimeUnit.MILLISECONDS.sleep(500);
                }
            }
        }
        return problems;
    }

    private static List<String> problems(AutoDiskClient client, int dataNodes) {
        List<String> out = new ArrayList<>();
        MembersReport members = client.admin().members();
        members.members().stream().filter(m -> !"up".equals(m.state()))
                .forEach(m -> out.add("member " + m.id() + " is " + m.state()));
        List<RangeStatus> ranges = client.admin().ranges().ranges();
        for (RangeStatus r : ranges) {
            if (!"serving".equals(r.state())) {
                out.add("range " + r.id() + " is " + r.state());
            } else if (dataNodes > 1 && r.backup() == null) {
                out.add("range " + r.id() + " has no backup");
            }
        }
        if (!client.admin().migrations().migrations().isEmpty()) {
            out.add(client.admin().migrations().migrations().size() + " migrations under way");
        }
        if (out.isEmpty()) {
            out.addAll(DirectoryCheck.problems(client.admin().directory(), ranges));
        }
        return out;
    }
}
