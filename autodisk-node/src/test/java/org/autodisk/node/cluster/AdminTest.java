package org.autodisk.node.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.util.List;
import java.util.Map;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.client.InvalidRequestException;
import org.autodisk.core.Keys;
import org.autodisk.core.cluster.MemberStatus;
import org.autodisk.core.cluster.MembersReport;
import org.autodisk.core.cluster.RangeStatus;
import org.autodisk.core.cluster.DirectoryReport;
import org.autodisk.core.cluster.RangesReport;
import org.autodisk.core.cluster.SplitResult;
import org.autodisk.node.MiniCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The admin view on real nodes with Ratis metadata: three data nodes split at "h" and "p" and one log node. Each
 * split test splits its own range, so the tests do not depend on their order.
 */
class AdminTest {

    private static MiniCluster cluster;
    private static AutoDiskClient viaD1;
    private static AutoDiskClient viaLog;

    @BeforeAll
    static void start() {
        cluster = MiniCluster.start(3, 1, null, Map.of("cluster.split-points", List.of("h", "p")));
        viaD1 = cluster.clientOf(0);
        viaLog = cluster.clientOf(3);
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    private static RangeStatus rangeHolding(RangesReport r, String key) {
        return r.ranges().stream().filter(x -> Keys.compare(x.low(), Keys.utf8(key)) <= 0
                && (x.high() == null || Keys.compare(Keys.utf8(key), x.high()) < 0)).findFirst().orElseThrow();
    }

    @Test
    void rangesListTheCommittedDescriptorsWithWhatTheirOwnersHold() {
        for (int i = 0; i < 30; i++) {
            viaD1.insert("b-" + i, "12345");
        }
        RangesReport r = viaLog.admin().ranges();
        assertThat(r.reportedBy()).isEqualTo("l1");
        assertThat(r.directory()).isEqualTo("range");
        RangeStatus first = r.ranges().get(0);
        assertThat(first.id()).isZero();
        assertThat(first.lowHex()).isEmpty();
        assertThat(first.owner()).isEqualTo("d1");
        assertThat(first.logNodes()).containsExactly("l1");
        assertThat(first.epoch()).isEqualTo(1);
        assertThat(first.state()).isEqualTo("serving");
        assertThat(first.keys()).isGreaterThanOrEqualTo(30);
        assertThat(first.bytes()).isGreaterThanOrEqualTo(30 * (3 + 5));
        assertThat(r.ranges()).extracting(RangeStatus::owner).containsSubsequence("d1", "d2", "d3");
    }

    @Test
    void theRangeMapReportsNoIndexPagesAndEachDataNodesOwnRanges() {
        DirectoryReport r = viaLog.admin().directory();
        assertThat(r.reportedBy()).isEqualTo("l1");
        assertThat(r.kind()).isEqualTo("range");
        assertThat(r.levels()).isZero();
        assertThat(r.indexPages()).isZero();
        assertThat(r.nodes()).extracting(DirectoryReport.NodeIndex::id).containsExactly("d1", "d2", "d3");
        RangesReport ranges = viaLog.admin().ranges();
        for (DirectoryReport.NodeIndex n : r.nodes()) {
            assertThat(n.error()).isNull();
            assertThat(n.kind()).isEqualTo("range");
            assertThat(n.pages()).isEmpty();
            assertThat(n.leaves()).isEqualTo(ranges.ranges().stream().filter(x -> x.owner().equals(n.id())).count())
                    .isEqualTo(n.leafLows().size()).isPositive();
        }
        assertThat(r.nodes().get(0).leafLows()).as("d1 owns the start of the key space").startsWith("");
    }

    @Test
    void membersSayWhoVotesWhoLeadsAndWhatEachReplicaIs() {
        MembersReport m = viaD1.admin().members();
        assertThat(m.members()).extracting(MemberStatus::id).containsExactly("d1", "d2", "d3", "l1");
        assertThat(m.members()).allSatisfy(s -> assertThat(s.state()).isEqualTo("up"));
        assertThat(m.members()).filteredOn(MemberStatus::voter).extracting(MemberStatus::id)
                .containsExactly("d1", "d2", "d3");
        assertThat(m.leader()).isIn("d1", "d2", "d3");
        assertThat(m.members()).filteredOn(s -> s.id().equals(m.leader())).extracting(MemberStatus::metadataRole)
                .containsExactly("leader");
        assertThat(m.members()).filteredOn(s -> s.id().equals("l1")).extracting(MemberStatus::metadataRole)
                .containsExactly("listener");
        assertThat(m.members()).allSatisfy(s -> assertThat(s.metadataAddress()).startsWith("127.0.0.1:"));
    }

    @Test
    void aSplitKeepsTheOwnerAndTheDataAndRaisesTheGeneration() {
        for (String k : List.of("ha", "hm", "hz", "ka", "ob")) {
            viaD1.insert(k, "v-" + k);
        }
        RangeStatus before = rangeHolding(viaD1.admin().ranges(), "k");
        SplitResult s = viaLog.admin().split("k");
        assertThat(s.left().id()).isEqualTo(before.id());
        assertThat(s.left().lowHex()).isEqualTo(before.lowHex());
        assertThat(s.left().highHex()).isEqualTo("6b");
        assertThat(s.right().lowHex()).isEqualTo("6b");
        assertThat(s.right().highHex()).isEqualTo(before.highHex());
        assertThat(List.of(s.left(), s.right())).allSatisfy(h -> {
            assertThat(h.owner()).isEqualTo(before.owner());
            assertThat(h.epoch()).isEqualTo(before.epoch());
            assertThat(h.generation()).isEqualTo(before.generation() + 1);
        });
        cluster.awaitMetadata();
        RangesReport after = viaD1.admin().ranges();
        assertThat(after.version()).isGreaterThanOrEqualTo(s.version());
        assertThat(rangeHolding(after, "hz").keys()).isEqualTo(3);
        assertThat(rangeHolding(after, "ka").keys()).isEqualTo(2);
        viaD1.insert("kb", "new");
        assertThat(viaD1.search("hm")).map(String::new).contains("v-hm");
        assertThat(cluster.node(1).store().get(Keys.utf8("kb"))).isEqualTo(Keys.utf8("new"));
    }

    @Test
    void aSplitAtARangeBoundaryIsRefusedAndChangesNothing() {
        RangesReport before = viaD1.admin().ranges();
        assertThatThrownBy(() -> viaD1.admin().split("p")).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("starts already");
        assertThatThrownBy(() -> viaD1.admin().split("")).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("key is empty");
        assertThatThrownBy(() -> viaD1.admin().split(new byte[5000])).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("1024");
        RangesReport after = viaD1.admin().ranges();
        assertThat(after.version()).isEqualTo(before.version());
        assertThat(after.ranges()).extracting(RangeStatus::id, RangeStatus::lowHex, RangeStatus::generation)
                .containsExactlyElementsOf(before.ranges().stream()
                        .map(r -> tuple(r.id(), r.lowHex(), r.generation())).toList());
    }
}
