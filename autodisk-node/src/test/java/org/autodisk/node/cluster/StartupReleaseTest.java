package org.autodisk.node.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.node.MiniCluster;
import org.autodisk.node.lifecycle.StartupStep;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node whose start-up fails at any step releases everything the earlier steps opened - threads, port, RocksDB
 * lock, log segments - so that it starts again at once on the same port and data. The failure is injected at each
 * step in turn through the builder's fault hook; a data node tries every step in a row (each attempt passes the
 * steps before it again) and then starts and serves, a log node starts and serves after each failure. (The steps of
 * a node that joins a running cluster are failed in {@link NodeJoinTest}.)
 */
class StartupReleaseTest {

    private static final Set<StartupStep> SKIPPED_BY_DATA = EnumSet.of(StartupStep.LEDGER_JOURNAL,
            StartupStep.CATCH_UP, StartupStep.JOIN, StartupStep.JOINED);
    private static final Set<StartupStep> SKIPPED_BY_LOG = EnumSet.of(StartupStep.STORE, StartupStep.BACKUPS,
            StartupStep.WRITE_AHEAD_LOG, StartupStep.LOAD_REPORTS, StartupStep.RANGE_CHECKS, StartupStep.MIGRATIONS,
            StartupStep.BALANCER, StartupStep.STRAY_SWEEP, StartupStep.JOIN, StartupStep.JOINED);

    @TempDir
    Path dir;

    @Test
    void aDataNodeFailingAtAnyStepReleasesWhatItOpenedAndStartsAgain() throws Exception {
        // three voters: while d2 is down the other two commit metadata changes, so that each attempt's ledger
        // recovery commits at once (with two voters every restart of d2 waits for an election)
        try (MiniCluster c = MiniCluster.start(3, 1, dir, Map.of())) {
            byte[] d2Key = {(byte) 0x80};
            c.clientOf(0).insert(d2Key, new byte[] {7});
            c.stopNode(1);
            for (StartupStep step : EnumSet.complementOf(EnumSet.copyOf(SKIPPED_BY_DATA))) {
                fail(c, 1, step); // each attempt passes every earlier step again: what they opened was released
            }
            c.startNode(1);
            AutoDiskClient client = c.clientOf(0);
            assertThat(client.search(d2Key)).as("after a failure at every step").hasValue(new byte[] {7});
            client.insert(d2Key, new byte[] {8});
            assertThat(client.search(d2Key)).hasValue(new byte[] {8});
        }
    }

    @Test
    void aLogNodeFailingAtAnyStepReleasesWhatItOpenedAndStartsAgain() throws Exception {
        try (MiniCluster c = MiniCluster.start(1, 1, dir, Map.of())) {
            byte[] last = null;
            for (StartupStep step : EnumSet.complementOf(EnumSet.copyOf(SKIPPED_BY_LOG))) {
                failAndRestart(c, 1, step);
                last = step.name().getBytes(java.nio.charset.StandardCharsets.UTF_8);
                c.clientOf(0).insert(new byte[] {'k'}, last);
            }
            assertThat(c.clientOf(0).search(new byte[] {'k'})).as("written after every restart of l1").hasValue(last);
        }
    }

    private static void failAndRestart(MiniCluster c, int node, StartupStep step) throws IOException {
        c.stopNode(node);
        fail(c, node, step);
        c.startNode(node);
    }

    /** Starts a stopped node with a failure at a step and checks that it released its threads and its port. */
    private static void fail(MiniCluster c, int node, StartupStep step) throws IOException {
        String id = c.id(node);
        assertThatThrownBy(() -> c.startNode(node, Map.of(), b -> b.failAt(step)))
                .as(id + " failing at " + step).hasMessageContaining("start-up step " + step + " failed");
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(Thread.getAllStackTraces().keySet())
                .as("threads of " + id + " after a failure at " + step)
                .noneMatch(t -> t.isAlive() && t.getName().startsWith(id + "-")));
        int port = Integer.parseInt(c.address(node).substring(c.address(node).lastIndexOf(':') + 1));
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
            assertThat(s.isBound()).as("port of " + id + " free after a failure at " + step).isTrue();
        }
    }
}
