package org.autodisk.cli;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.client.StreamEntry;
import org.autodisk.client.Traced;
import org.autodisk.core.Keys;
import org.autodisk.node.directory.fatbtree.FatBtrees;
import org.autodisk.core.cluster.ClusterStatus;
import org.autodisk.core.cluster.MemberStatus;
import org.autodisk.core.cluster.MembersReport;
import org.autodisk.core.cluster.MetricNames;
import org.autodisk.core.cluster.NodeStatus;
import org.autodisk.core.cluster.RangeStatus;
import org.autodisk.core.cluster.RangesReport;
import org.autodisk.core.cluster.SplitResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code autodisk demo}: starts a local cluster of three data nodes, inserts through one node streams that the
 * others own, reads them through a third, traverses across all ranges, deletes, and shows who did what.
 */
@Command(name = "demo", footer = "  autodisk demo",
        description = "Start a local cluster, show forwarding, reads and traversal, then stop.")
final class DemoCommand implements Callable<Integer> {

    private static final int DEMO_FANOUT = 3;
    private static final Map<String, String> FRUIT = new java.util.LinkedHashMap<>();

    static {
        String[][] items = {{"apple", "red"}, {"banana", "yellow"}, {"cherry", "dark red"}, {"kiwi", "green"},
            {"lemon", "yellow"}, {"mango", "orange"}, {"peach", "pink"}, {"plum", "purple"}, {"quince", "gold"}};
        for (String[] i : items) {
            FRUIT.put(i[0], i[1]);
        }
    }

    @Option(names = "--base-port", defaultValue = "7450", description = "First port (default: ${DEFAULT-VALUE}).")
    int basePort;

    @Option(names = "--directory", defaultValue = "range", description = "The cluster's directory: range or "
            + "fat-btree (default: ${DEFAULT-VALUE}); the demo's Fat-Btree has index pages of at most 3 "
            + "entries, so its three ranges already make two levels.")
    String directory;

    @Option(names = "--dir", description = "Where the cluster keeps its files, kept after the demo (default: a "
            + "temporary directory, removed at the end).")
    Path dir;

    @Override
    public Integer call() throws Exception {
        Locale.setDefault(Locale.ROOT);
        Path where = dir != null ? dir : Files.createTempDirectory("autodisk-demo");
        say("starting a local cluster: 3 data nodes and 1 log node (separate processes) on 127.0.0.1:" + basePort
                + "-" + (basePort + 3) + ", files in " + where);
        boolean fat = fatBtree();
        LocalCluster started = LocalCluster.start(where, 3, 1, basePort, List.of("h", "p"), "cluster.directory: "
                + directory + "\n" + (fat ? "directory.fanout: " + DEMO_FANOUT + "\n" : ""));
        try (LocalCluster cluster = dir == null ? started.deleteOnClose() : started) {
            say("cluster ready: seeds=" + cluster.seeds());
            List<String> addrs = cluster.addresses();
            try (AutoDiskClient viaD1 = connect(addrs.get(0)); AutoDiskClient viaD3 = connect(addrs.get(2))) {
                showMetadata(viaD1);
                showDirectory(viaD1, "the Fat-Btree directory: each data node holds the index pages above its own "
                        + "ranges (the root on every node):");
                warmUp(viaD1);
                insertAll(viaD1);
                showBackups(viaD1);
                searchAll(viaD3);
                traverse(connect(addrs.get(1)));
                delete(viaD3);
                split(viaD3);
                showDirectory(viaD1, "the split inserted the new leaf into the index page above it, on the nodes "
                        + "holding a copy of that page and only those (a page over " + DEMO_FANOUT + " entries splits"
                        + " on every copy):");
                showCounts(viaD1.status());
            }
            say("stopping the cluster (each node drains its queue and closes its store) ...");
        }
        say(dir == null ? "done; the temporary directory " + where + " is removed." : "done; the files stay in "
                + where + ".");
        return 0;
    }

    private void showDirectory(AutoDiskClient client, String title) {
        if (!fatBtree()) {
            return;
        }
        say("\n" + title);
        System.out.print(DirectoryTable.render(client.admin().directory()));
    }

    private boolean fatBtree() {
        return FatBtrees.KIND.equals(directory);
    }

    private static AutoDiskClient connect(String address) {
        return AutoDiskClient.builder().seeds(address).build();
    }

    private static void showMetadata(AutoDiskClient client) {
        MembersReport m = client.admin().members();
        say("\nthe cluster metadata is replicated with Raft (Apache Ratis): voters " + m.members().stream()
                .filter(MemberStatus::voter).map(MemberStatus::id).toList() + ", leader " + m.leader()
                + "; every other node follows as a listener");
        showRanges(client.admin().ranges(), "it splits the key space into ranges, one owner each:");
    }

    private static void showRanges(RangesReport ranges, String title) {
        say("\n" + title + " (metadata v" + ranges.version() + ")");
        for (RangeStatus r : ranges.ranges()) {
            say(String.format("  range %d  [%s, %s)  owner %s  epoch %d  generation %d  %s  %s streams", r.id(),
                    r.low().length == 0 ? "-inf" : Keys.render(r.low()), Keys.render(r.high()), r.owner(), r.epoch(),
                    r.generation(), r.state(), r.keys() < 0 ? "?" : Long.toString(r.keys())));
        }
    }

    private static void split(AutoDiskClient client) {
        long t0 = System.nanoTime();
        SplitResult s = client.admin().split("m");
        say("\nsplit the range holding \"m\" at \"m\" through " + client.connectedNode() + ": committed in "
                + TraceFormat.micros(System.nanoTime() - t0) + " as ranges " + s.left().id() + " and "
                + s.right().id() + ", both still on " + s.left().owner() + ", no data moved");
        showRanges(client.admin().ranges(), "the ranges now:");
        Traced<Void> t = client.async().insertTraced(Keys.utf8("melon"), Keys.utf8("green")).join();
        say(String.format("  insert melon: path %s (range %d)", TraceFormat.path(t.hops()), s.right().id()));
    }

    private static void warmUp(AutoDiskClient client) {
        say("\nwarming the JVMs up: 3000 inserts and deletes of scratch keys ...");
        for (int i = 0; i < 3000; i++) {
            String key = (char) ('a' + i % 26) + "-warm-" + i;
            client.insert(key, "x");
            client.delete(key);
        }
    }

    private static void showBackups(AutoDiskClient client) throws InterruptedException {
        say("\nthe owners logged every change on log node l1 before applying it (the 'log' time above);"
                + " l1 now applies the log to the backup copies:");
        long deadline = System.nanoTime() + 10_000_000_000L;
        ClusterStatus s = client.status();
        while (s.ranges().stream().anyMatch(r -> r.backupLag() != 0) && System.nanoTime() < deadline) {
            java.util.concurrent.TimeUnit.MILLISECONDS.sleep(100);
            s = client.status();
        }
        for (RangeStatus r : s.ranges()) {
            say(String.format("  range %d  owner %s  log %s  backup %s  backup lag %d entries", r.id(), r.owner(),
                    String.join(",", r.logNodes()), r.backup(), r.backupLag()));
        }
    }

    private static void insertAll(AutoDiskClient client) {
        say("\ninsert through " + client.connectedNode() + " (it forwards what another node owns):");
        for (Map.Entry<String, String> f : FRUIT.entrySet()) {
            Traced<Void> t = client.async().insertTraced(Keys.utf8(f.getKey()),
                    f.getValue().getBytes(StandardCharsets.UTF_8)).join();
            say(String.format("  %-7s path %-9s round trip %7s   %s", f.getKey(), TraceFormat.path(t.hops()),
                    TraceFormat.micros(t.roundTripNanos()), TraceFormat.timings(t.hops())));
        }
    }

    private static void searchAll(AutoDiskClient client) {
        say("\nsearch through " + client.connectedNode() + ":");
        for (String key : FRUIT.keySet()) {
            var t = client.async().searchTraced(Keys.utf8(key)).join();
            String value = t.value().map(v -> new String(v, StandardCharsets.UTF_8)).orElse("(not found)");
            say(String.format("  %-7s = %-9s path %-9s round trip %7s", key, value, TraceFormat.path(t.hops()),
                    TraceFormat.micros(t.roundTripNanos())));
        }
    }

    private static void traverse(AutoDiskClient client) {
        try (client) {
            long t0 = System.nanoTime();
            List<StreamEntry> all = client.traverse(new byte[0], null, 100);
            say("\ntraverse the whole key space through " + client.connectedNode() + " (it gathers from every range)"
                    + " in " + TraceFormat.micros(System.nanoTime() - t0) + ":");
            for (StreamEntry e : all) {
                say("  " + e.keyString() + " = " + e.valueString());
            }
        }
    }

    private static void delete(AutoDiskClient client) {
        boolean existed = client.delete("banana");
        say("\ndelete banana through " + client.connectedNode() + ": " + (existed ? "deleted" : "not found")
                + "; again: " + (client.delete("banana") ? "deleted" : "not found"));
    }

    private static void showCounts(ClusterStatus status) {
        say("\nstreams per node now:");
        for (NodeStatus n : status.nodes()) {
            say(String.format("  %s  %-16s %d streams, %.0f requests served, forwarded %.0f", n.id(), n.address(),
                    n.streamCount(), n.metrics().getOrDefault(MetricNames.REQUESTS, 0.0),
                    n.metrics().getOrDefault(MetricNames.FORWARDED, 0.0)));
        }
    }

    private static void say(String line) {
        System.out.println(line);
    }
}
