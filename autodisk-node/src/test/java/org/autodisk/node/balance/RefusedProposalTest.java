package org.autodisk.node.balance;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.autodisk.core.cluster.BalanceReport;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.Opcode;
import org.autodisk.core.protocol.Responses;
import org.autodisk.node.InMemoryCluster;
import org.autodisk.node.meta.MetaCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A proposal of the rules that the metadata refuses as the cluster stands is not proposed again and again: a user rule
 * asks every round to fill a backup of d1's range, which d2 backs up already; the rounds report the refusal and no
 * start reaches the metadata group (in-memory cluster: three data nodes, one log node).
 */
class RefusedProposalTest {

    private static final String RULE = """
            package org.autodisk.rules;
            import org.autodisk.rules.ClusterLoad;
            import org.autodisk.rules.RangeLoad;
            global org.autodisk.rules.NodeActions actions;
            rule "fill a backup the range has"
            when
                ClusterLoad( $ranges : ranges )
                RangeLoad( owner == "d1", $id : rangeId ) from $ranges
            then
                actions.startBackupFill($id, "d3", "a test's rule");
            end
            """;

    @Test
    void aStartTheMetadataRefusesAsItStandsIsNotProposed(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("fill.drl"), RULE);
        try (InMemoryCluster c = new InMemoryCluster(3, 1, Map.of("rules.dir", dir.toString(),
                "balance.check-ms", 0))) {
            for (int round = 0; round < 3; round++) {
                Frame got = c.call(0, Frame.request(Opcode.BALANCE, 1, new byte[] {0})).join();
                BalanceReport report = BalanceReport.fromJson(Responses.parseBytes(got.body()));
                assertThat(report.proposals()).singleElement().satisfies(p -> assertThat(p.outcome())
                        .startsWith("not started: ").contains("has a backup already"));
            }
            assertThat(c.metadata().proposals(MetaCommand.StartMigration.class)).isZero();
        }
    }
}
