package org.autodisk.node.balance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.core.Keys;
import org.autodisk.core.cluster.BalanceReport;
import org.autodisk.core.cluster.MetricNames;
import org.autodisk.core.cluster.NodeStatus;
import org.autodisk.node.MiniCluster;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.RangeDescriptor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The balancing data node runs balance rounds by itself: a data node an administrator emptied gets a range back
 * from the rules without anyone asking, the migration is marked as started by the rules, and the target's rules
 * hear the migration's events.
 */
class BalancerTest {

    /** A user rule that raises an alert on every migration event, so the test can count what the rules heard. */
    private static final String EVENTS_DRL = """
            package org.autodisk.rules;
            global org.autodisk.rules.NodeActions actions;
            rule "heard started" when MigrationStarted( $r : rangeId ) then actions.alert("started", "" + $r); end
            rule "heard finished" when MigrationFinished( $r : rangeId ) then actions.alert("finished", "" + $r); end
            """;

    @Test
    void anEmptiedDataNodeGetsARangeBackFromTheRulesByThemselves(@TempDir Path dir) throws IOException {
        Path rules = Files.createDirectories(dir.resolve("rules"));
        Files.writeString(rules.resolve("events.drl"), EVENTS_DRL);
        Map<String, Object> config = Map.of("wal.multiplicity", 2, "balance.check-ms", 300, "rules.dir",
                rules.toString(), "rules.alert-interval-ms", 1);
        try (MiniCluster c = MiniCluster.start(3, 2, null, config)) {
            AutoDiskClient client = c.clientOf(0);
            for (int i = 0; i < 300; i++) {
                client.insert(key(i), Keys.utf8("v" + i));
            }
            RangeDescriptor d3s = c.node(0).metadata().current().rangeOf(new byte[] {(byte) 0xE0});
            assertThat(d3s.owner()).isEqualTo("d3");
            double heardBefore = alerts(client, "d3");
            client.admin().migrate(d3s.id(), "d1", 0L);
            await().atMost(Duration.ofSeconds(60)).until(() -> ownsARange(c.node(0).metadata().current(), "d3")
                    && c.node(0).metadata().current().migrations().isEmpty());
            MetaState after = c.node(0).metadata().current();
            assertThat(after.ranges()).extracting(RangeDescriptor::owner).containsExactlyInAnyOrder("d1", "d2", "d3");
            await().atMost(Duration.ofSeconds(10)).until(() -> alerts(client, "d3") >= heardBefore + 2);
            for (int i = 0; i < 300; i++) {
                assertThat(client.search(key(i))).contains(Keys.utf8("v" + i));
            }
        }
    }

    @Test
    void aRoundWithADataNodeDownLeavesItsFiguresUnknownAndMovesNothingToIt() {
        try (MiniCluster c = MiniCluster.start(3, 2, null, Map.of("wal.multiplicity", 2))) {
            AutoDiskClient client = c.clientOf(0);
            client.insert(key(1), Keys.utf8("v"));
            c.stopNode(2);
            BalanceReport report = client.admin().balance(true);
            assertThat(report.nodes()).filteredOn(n -> n.id().equals("d3")).singleElement()
                    .satisfies(n -> assertThat(n.bytes()).isEqualTo(-1));
            assertThat(report.nodes()).filteredOn(n -> !n.id().equals("d3")).allSatisfy(n -> assertThat(n.bytes())
                    .isNotNegative());
            assertThat(report.proposals()).noneMatch(p -> p.to().equals("d3"));
            assertThat(report.nodes()).as("d1 measures its disk, d2 sends it, d3 is down").extracting(
                    n -> n.id() + (n.diskUsedPercent() >= 0 ? " measured" : " unknown"))
                    .containsExactlyInAnyOrder("d1 measured", "d2 measured", "d3 unknown");
        }
    }

    @Test
    void anEmptiedDataNodeWhoseDiskIsTooFullGetsNoRangeBack() {
        Map<String, Object> config = Map.of("wal.multiplicity", 2, "balance.max-disk-used-percent", 0.001);
        try (MiniCluster c = MiniCluster.start(3, 2, null, config)) {
            AutoDiskClient client = c.clientOf(0);
            client.insert(key(1), Keys.utf8("v"));
            RangeDescriptor d3s = c.node(0).metadata().current().rangeOf(new byte[] {(byte) 0xE0});
            client.admin().migrate(d3s.id(), "d1", 0L);
            await().atMost(Duration.ofSeconds(60)).until(() -> !ownsARange(c.node(0).metadata().current(), "d3")
                    && c.node(0).metadata().current().migrations().isEmpty());
            BalanceReport report = client.admin().balance(true);
            assertThat(report.nodes()).allSatisfy(n -> assertThat(n.diskUsedPercent()).isGreaterThan(0.001));
            assertThat(report.proposals()).as("every disk is fuller than 0.001 %: no node has room").isEmpty();
        }
    }

    @Test
    void aDataNodeWhoseDiskFillsGivesItsRangesAndBackupsAwayAndTakesOneBack(@TempDir Path dir) throws IOException {
        Map<String, Object> config = Map.of("wal.multiplicity", 2, "balance.check-ms", 300, "fault.hooks-dir", "hooks",
                "balance.max-disk-used-percent", 92.5, "balance.shed-disk-used-percent", 95);
        try (MiniCluster c = MiniCluster.start(3, 2, dir, config)) {
            for (int i = 0; i < 3; i++) { // every disk reported half full, whatever this machine's is
                diskUsed(c, i, "50");
            }
            AutoDiskClient client = c.clientOf(1);
            for (int i = 0; i < 300; i++) {
                client.insert(spread(i), Keys.utf8("v" + i));
            }
            assertThat(ownsARange(c.node(1).metadata().current(), "d1")).isTrue();
            assertThat(backsUpARange(c.node(1).metadata().current(), "d1")).isTrue();
            diskUsed(c, 0, "97");
            await().atMost(Duration.ofSeconds(60)).until(() -> !ownsARange(c.node(1).metadata().current(), "d1")
                    && !backsUpARange(c.node(1).metadata().current(), "d1")
                    && c.node(1).metadata().current().migrations().isEmpty());
            await().atMost(Duration.ofSeconds(30)).until(() -> c.node(0).backups().copy().scan(new byte[0], null, 1,
                    Long.MAX_VALUE).entries().isEmpty());
            for (int i = 0; i < 300; i++) {
                assertThat(client.search(spread(i))).contains(Keys.utf8("v" + i));
            }
            diskUsed(c, 0, "50");
            await().atMost(Duration.ofSeconds(60)).until(() -> ownsARange(c.node(1).metadata().current(), "d1")
                    && c.node(1).metadata().current().migrations().isEmpty());
            for (int i = 0; i < 300; i++) {
                assertThat(client.search(spread(i))).contains(Keys.utf8("v" + i));
            }
        }
    }

    private static void diskUsed(MiniCluster c, int node, String percent) throws IOException {
        Path hooks = Files.createDirectories(c.config(node).dataDir().resolve("hooks"));
        Files.writeString(hooks.resolve("disk-used-percent"), percent);
    }

    /** Keys over the whole key space. */
    private static byte[] spread(int i) {
        return new byte[] {(byte) (i * 7), (byte) (i >> 8), (byte) i};
    }

    /** Keys of d3's range (the last third of the key space). */
    private static byte[] key(int i) {
        return new byte[] {(byte) 0xE0, (byte) (i >> 8), (byte) i};
    }

    private static boolean backsUpARange(MetaState s, String node) {
        return s.ranges().stream().anyMatch(r -> r.backups().contains(node));
    }

    private static boolean ownsARange(MetaState s, String node) {
        return s.ranges().stream().anyMatch(r -> r.owner().equals(node));
    }

    private static double alerts(AutoDiskClient client, String node) {
        return client.status().nodes().stream().filter(n -> n.id().equals(node)).findFirst()
                .map(NodeStatus::metrics).map(m -> m.getOrDefault(MetricNames.RULE_ALERTS, 0.0)).orElse(0.0);
    }
}
