package org.autodisk.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.client.StreamEntry;
import org.autodisk.core.cluster.ClusterStatus;
import org.autodisk.core.cluster.NodeStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs {@code ./autodisk local} as a user would: separate node processes on loopback, a client through
 * different nodes, then SIGTERM to the launcher stops every node process.
 */
class LocalClusterIT {

    @TempDir
    Path dir;

    @Test
    void localClusterOfProcessesServesForwardsTraversesAndStopsCleanly() throws Exception {
        int basePort = FreePorts.base(3);
        Process launcher = Launcher.start("local", "--data-nodes", "3", "--base-port", String.valueOf(basePort),
                "--dir", dir.toString(), "--split-points", "h,p");
        try {
            String seeds = Launcher.awaitReady(launcher);
            assertThat(seeds.split(",")).hasSize(3);
            List<ProcessHandle> nodes = launcher.descendants().toList();
            assertThat(nodes).hasSizeGreaterThanOrEqualTo(3);
            exercise(seeds.split(","));
            Launcher.Result insert = Launcher.run("insert", "--seeds", seeds.split(",")[0], "lime", "green");
            assertThat(insert.output()).as("the CLI names the owner").contains(
                    "inserted lime (value of 5 bytes): stored by owner d2, forwarded by d1");
            launcher.destroy();
            assertThat(launcher.waitFor(60, TimeUnit.SECONDS)).as("launcher exits on SIGTERM").isTrue();
            for (ProcessHandle node : nodes) {
                node.onExit().get(30, TimeUnit.SECONDS);
                assertThat(node.isAlive()).isFalse();
            }
            String log = Files.readString(dir.resolve("d2.log"));
            assertThat(log).contains("d2: serving on").contains("d2: stopped cleanly");
        } finally {
            launcher.descendants().forEach(ProcessHandle::destroyForcibly);
            launcher.destroyForcibly();
        }
        startedAgainKeepsOnlyThisRunsLog(basePort);
    }

    /** A second start on the same directory keeps the data but begins every node's log afresh. */
    private void startedAgainKeepsOnlyThisRunsLog(int basePort) throws Exception {
        Process again = Launcher.start("local", "--data-nodes", "3", "--base-port", String.valueOf(basePort),
                "--dir", dir.toString(), "--split-points", "h,p");
        try {
            String seeds = Launcher.awaitReady(again);
            try (AutoDiskClient c = client(seeds.split(",")[0])) {
                assertThat(c.search("kiwi")).map(String::new).contains("green");
            }
            String log = Files.readString(dir.resolve("d2.log"));
            assertThat(log.split("d2: serving on", -1)).as("one start in the log").hasSize(2);
            assertThat(log).doesNotContain("d2: stopped cleanly");
        } finally {
            again.destroy();
            again.waitFor(60, TimeUnit.SECONDS);
            again.descendants().forEach(ProcessHandle::destroyForcibly);
        }
    }

    private static void exercise(String[] addresses) {
        try (AutoDiskClient viaD1 = client(addresses[0]); AutoDiskClient viaD3 = client(addresses[2])) {
            viaD1.insert("quince", "gold");
            viaD1.insert("kiwi", "green");
            viaD1.insert("apple", "red");
            assertThat(viaD3.search("kiwi")).map(String::new).contains("green");
            assertThat(viaD3.search("apple")).map(String::new).contains("red");
            List<StreamEntry> all = viaD3.traverse("", null, 100);
            assertThat(all).extracting(StreamEntry::keyString).containsExactly("apple", "kiwi", "quince");
            ClusterStatus status = viaD1.status();
            assertThat(status.nodes()).extracting(NodeStatus::streamCount).containsExactly(1L, 1L, 1L);
            assertThat(viaD3.delete("apple")).isTrue();
            assertThat(viaD1.search("apple")).isEmpty();
        }
    }

    private static AutoDiskClient client(String address) {
        return AutoDiskClient.builder().seeds(address).requestTimeout(Duration.ofSeconds(20)).build();
    }
}
