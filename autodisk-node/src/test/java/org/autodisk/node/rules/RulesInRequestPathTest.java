package org.autodisk.node.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.autodisk.core.cluster.MetricNames;
import org.autodisk.core.config.ConfigException;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.InsertRequest;
import org.autodisk.core.protocol.KeyRequest;
import org.autodisk.core.protocol.Opcode;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.InMemoryCluster;
import org.autodisk.node.meta.LedgerInfo;
import org.autodisk.node.meta.LedgerState;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rules decide every stream request, end to end in in-memory clusters: d1 owns keys below 0x80 (all the
 * text keys here), d2 the rest; node 1 (d2) forwards text keys to d1.
 */
class RulesInRequestPathTest {

    @TempDir
    Path dir;

    private static byte[] key(String k) {
        return k.getBytes(StandardCharsets.UTF_8);
    }

    private static CompletableFuture<Frame> insertAsync(InMemoryCluster c, int node, String k, int v) {
        return c.call(node, Frame.request(Opcode.INSERT, 1, new InsertRequest(key(k), new byte[] {(byte) v})
                .encode()));
    }

    private static Frame insert(InMemoryCluster c, int node, String k, int v) {
        return insertAsync(c, node, k, v).join();
    }

    private static Frame delete(InMemoryCluster c, int node, String k) {
        return c.call(node, Frame.request(Opcode.DELETE, 1, new KeyRequest(key(k)).encode())).join();
    }

    private static Status status(Frame f) {
        return Responses.status(f.body());
    }

    private Map<String, Object> withRules(Map<String, Object> more) {
        Map<String, Object> cfg = new HashMap<>(more);
        cfg.put("rules.dir", dir.toString());
        return cfg;
    }

    @Test
    void writeProtectedKeysAreInsertedOnceAndNeverReplacedOrDeleted() throws Exception {
        RuleFiles.example(dir, "write-protect.drl");
        try (InMemoryCluster c = new InMemoryCluster(2, withRules(Map.of("rules.write-protected-prefixes", "ro/")))) {
            assertThat(status(insert(c, 1, "ro/contract", 1))).isEqualTo(Status.OK);
            Frame replace = insert(c, 1, "ro/contract", 2);
            assertThat(status(replace)).isEqualTo(Status.REFUSED);
            assertThat(Responses.errorMessage(replace.body()))
                    .isEqualTo("key 'ro/contract' is write-protected (prefix 'ro/'): replace refused");
            Frame del = delete(c, 0, "ro/contract");
            assertThat(status(del)).isEqualTo(Status.REFUSED);
            assertThat(Responses.errorMessage(del.body())).contains("delete refused");
            assertThat(c.node(0).store().get(key("ro/contract"))).containsExactly(1);

            assertThat(status(insert(c, 1, "rw/note", 1))).isEqualTo(Status.OK);
            assertThat(status(insert(c, 1, "rw/note", 2))).isEqualTo(Status.OK);
            assertThat(Responses.parseDelete(delete(c, 1, "rw/note").body())).isTrue();
            assertThat(c.node(0).metrics().snapshot()).containsEntry(MetricNames.RULE_FAILURES, 0.0);
        }
    }

    @Test
    void withDoubleLogPrefixesTheNodesLedgersWaitForBothLogNodes() throws Exception {
        RuleFiles.example(dir, "double-log.drl");
        try (InMemoryCluster c = new InMemoryCluster(2, 2, withRules(Map.of("rules.double-log-prefixes", "log2/",
                "wal.catch-up-idle-ms", 3_600_000)))) {
            assertThat(c.node(0).wal().logNodes()).containsExactly("l1", "l2");
            assertThat(status(insert(c, 1, "plain", 1))).isEqualTo(Status.OK);
            LedgerInfo ledger = c.node(0).metadata().current().ledgers().stream().filter(l -> l.writer().equals("d1")
                    && l.state() == LedgerState.OPEN).findFirst().orElseThrow();
            assertThat(ledger.lastFragment().ensemble()).containsExactly("l1", "l2");
            c.peers(0).holdAnswers("l2", true);
            CompletableFuture<Frame> doubled = insertAsync(c, 1, "log2/ledger", 2);
            Awaitility.await().atMost(Duration.ofSeconds(10))
                    .until(() -> c.node(2).log().ledgers().store().lastEntry(ledger.id()) == 2);
            Awaitility.await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5))
                    .until(() -> !doubled.isDone());
            assertThat(c.node(0).store().get(key("log2/ledger"))).isNull();

            c.peers(0).holdAnswers("l2", false);
            assertThat(status(doubled.join())).isEqualTo(Status.OK);
            assertThat(c.node(3).log().ledgers().read(ledger.id(), 2, 1)).singleElement()
                    .satisfies(r -> assertThat(r.key()).isEqualTo(key("log2/ledger")));
            assertThat(c.node(0).store().get(key("log2/ledger"))).containsExactly(2);
        }
    }

    @Test
    void aRuleThatThrowsGetsTheRequestAnErrorAndTheNodeGoesOn() throws Exception {
        RuleFiles.write(dir, "explode.drl", """
                rule "explode on boom"
                when
                    InsertRequested( key == "boom" )
                then
                    throw new IllegalStateException("boom is not welcome");
                end
                """);
        try (InMemoryCluster c = new InMemoryCluster(2, withRules(Map.of()))) {
            Frame r = insert(c, 1, "boom", 1);
            assertThat(status(r)).isEqualTo(Status.RULE_FAILED);
            assertThat(Responses.errorMessage(r.body())).contains("rule 'explode on boom' failed on node d2")
                    .contains("boom is not welcome");
            assertThat(c.node(0).store().get(key("boom"))).isNull();
            assertThat(status(insert(c, 1, "calm", 1))).isEqualTo(Status.OK);
            assertThat(c.node(1).rules().failureCounts()).containsEntry("explode on boom", 1L);
            assertThat(c.node(1).metrics().snapshot()).containsEntry(MetricNames.RULE_FAILURES, 1.0);
        }
    }

    @Test
    void anInvalidRuleFileStopsTheNodeAtStartWithFileAndLine() {
        Path broken = RuleFiles.write(dir, "broken.drl", "rule \"half\"\nwhen\n    InsertRequested( key == )\n"
                + "then\nend\n");
        assertThatThrownBy(() -> new InMemoryCluster(1, withRules(Map.of())))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("node d1: the rules do not compile")
                .hasMessageContaining(broken + ":6:");
    }

    @Test
    void rulesThatDecideNothingOrTheImpossibleGetAClearError() throws Exception {
        RuleFiles.write(dir, "partial.drl", """
                rule "inserts only, twice logged"
                when
                    InsertRequested( ownerIsLocal )
                then
                    verdict.handleLocally(2);
                end
                rule "forward what is not here"
                when
                    RequestEvent( !ownerIsLocal )
                then
                    verdict.forward();
                end
                """);
        try (InMemoryCluster c = new InMemoryCluster(2, 1, withRules(Map.of("rules.shipped", false)))) {
            Frame ins = insert(c, 1, "k", 1);
            assertThat(status(ins)).isEqualTo(Status.RULE_FAILED);
            assertThat(Responses.errorMessage(ins.body())).contains("log multiplicity 2")
                    .contains("logs to 1 log node(s) [l1]");
            Frame del = delete(c, 1, "k");
            assertThat(status(del)).isEqualTo(Status.RULE_FAILED);
            assertThat(Responses.errorMessage(del.body())).contains("no rule decided the request for key k on node d1");
        }
    }

    @Test
    void anUnreachablePeerIsSuspectedAndAlerted() throws Exception {
        try (InMemoryCluster c = new InMemoryCluster(2, Map.of())) {
            c.peers(1).setUnreachable("d1", true);
            assertThat(status(insert(c, 1, "k", 1))).isEqualTo(Status.NODE_UNAVAILABLE);
            assertThat(c.node(1).metrics().snapshot()).containsEntry(MetricNames.RULE_ALERTS, 1.0);
        }
    }

    @Test
    void aNodeServingMostRequestsRaisesALoadSkewAlert() throws Exception {
        Map<String, Object> fastReports = Map.of("rules.load-report-ms", 50, "rules.skew-min-requests-per-second", 1.0,
                "rules.skew-ratio", 1.5);
        try (InMemoryCluster c = new InMemoryCluster(3, fastReports)) {
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
                for (int i = 0; i < 200; i++) {
                    insert(c, 0, "hot" + i, i);
                }
                return c.node(0).metrics().snapshot().get(MetricNames.RULE_ALERTS) > 0
                        && c.node(1).metrics().snapshot().get(MetricNames.RULE_ALERTS) > 0;
            });
        }
    }

    @Test
    void noRuleFilesAtAllStopTheNode() {
        assertThatThrownBy(() -> new InMemoryCluster(1, withRules(Map.of("rules.shipped", false))))
                .isInstanceOf(ConfigException.class).hasMessageContaining("no rule files");
        assertThatThrownBy(() -> new InMemoryCluster(1, Map.of("rules.dir", dir.resolve("missing").toString())))
                .isInstanceOf(ConfigException.class).hasMessageContaining("is not a directory");
    }
}
