package org.autodisk.node.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.client.StreamEntry;
import org.autodisk.client.Traced;
import org.autodisk.core.Keys;
import org.autodisk.core.cluster.ClusterStatus;
import org.autodisk.core.cluster.NodeStatus;
import org.autodisk.node.MiniCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Three real nodes on loopback, split at "h" and "p": d1 owns [-inf,h), d2 [h,p), d3 [p,+inf). */
class ClusterTest {

    private static MiniCluster cluster;
    private static AutoDiskClient viaD1;
    private static AutoDiskClient viaD2;
    private static AutoDiskClient viaD3;

    @BeforeAll
    static void start() {
        cluster = MiniCluster.start(3, null, Map.of("cluster.split-points", List.of("h", "p")));
        viaD1 = cluster.clientOf(0);
        viaD2 = cluster.clientOf(1);
        viaD3 = cluster.clientOf(2);
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    @Test
    void insertThroughANonOwnerIsForwardedAndReadableThroughAThirdNode() {
        viaD1.insert("quince", "gold");
        assertThat(cluster.node(2).store().get(Keys.utf8("quince"))).isEqualTo(Keys.utf8("gold"));
        assertThat(cluster.node(0).store().get(Keys.utf8("quince"))).isNull();
        assertThat(viaD2.search("quince")).map(String::new).contains("gold");
        assertThat(viaD2.search("quincf")).isEmpty();
    }

    @Test
    void traceShowsTheForwardingPath() {
        Traced<Void> t = viaD1.async().insertTraced(Keys.utf8("kiwi"), Keys.utf8("green")).join();
        assertThat(t.hops()).extracting(h -> h.nodeId()).containsExactly("d2", "d1");
        assertThat(t.hops().get(0).action()).isEqualTo("store");
        assertThat(t.hops().get(1).action()).isEqualTo("forward:d2");
        assertThat(t.hops().get(1).components()).containsKeys("queue", "forward", "total");
        Traced<Optional<byte[]>> local = viaD2.async().searchTraced(Keys.utf8("kiwi")).join();
        assertThat(local.hops()).extracting(h -> h.nodeId()).containsExactly("d2");
        assertThat(local.value()).hasValueSatisfying(v -> assertThat(v).isEqualTo(Keys.utf8("green")));
    }

    @Test
    void traverseCrossesEveryRangeInKeyOrderThroughOneNode() {
        List<String> keys = List.of("ta-apple", "ta-zebra", "tb-kiwi", "h-first", "o-last", "p-first", "a-first");
        for (String k : keys) {
            viaD3.insert(k, "v-" + k);
        }
        List<StreamEntry> all = viaD2.traverse("", null, 10_000);
        List<String> got = all.stream().map(StreamEntry::keyString).toList();
        assertThat(got).containsAll(keys);
        assertThat(got).isSortedAccordingTo(String::compareTo);
        List<String> page = viaD1.traverse("h", "p", 10_000).stream().map(StreamEntry::keyString).toList();
        assertThat(page).contains("h-first", "o-last").doesNotContain("p-first", "a-first");
        List<StreamEntry> limited = viaD1.traverse("a-first", null, 3);
        assertThat(limited).extracting(StreamEntry::keyString).containsExactly(got.subList(
                got.indexOf("a-first"), got.indexOf("a-first") + 3).toArray(String[]::new));
    }

    @Test
    void deleteThroughANonOwnerSaysWhetherTheStreamExisted() {
        viaD2.insert("zz-delete-me", "x");
        assertThat(viaD1.delete("zz-delete-me")).isTrue();
        assertThat(viaD1.delete("zz-delete-me")).isFalse();
        assertThat(viaD3.search("zz-delete-me")).isEmpty();
    }

    @Test
    void statusReportsNodesRangesOwnersAndCounts() {
        viaD1.insert("b-status", "1");
        ClusterStatus s = viaD3.status();
        assertThat(s.reportedBy()).isEqualTo("d3");
        assertThat(s.nodes()).extracting(NodeStatus::id).containsExactly("d1", "d2", "d3");
        assertThat(s.nodes()).allMatch(NodeStatus::reachable).allMatch(n -> n.role().equals("data"));
        assertThat(s.nodes().get(0).streamCount()).isEqualTo(cluster.node(0).store().count());
        assertThat(s.ranges()).extracting(r -> r.owner()).containsExactly("d1", "d2", "d3");
        assertThat(s.ranges()).allMatch(r -> r.epoch() == 1);
        assertThat(s.ranges().get(1).low()).isEqualTo(Keys.utf8("h"));
        assertThat(s.ranges().get(2).high()).isNull();
    }

    @Test
    void manyConcurrentInsertsFromSeveralEntryNodesAllLand() {
        List<java.util.concurrent.CompletableFuture<Void>> fs = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            AutoDiskClient c = i % 3 == 0 ? viaD1 : i % 3 == 1 ? viaD2 : viaD3;
            fs.add(c.async().insert(Keys.utf8((char) ('a' + i % 26) + "-conc-" + i), Keys.utf8("v" + i)));
        }
        fs.forEach(java.util.concurrent.CompletableFuture::join);
        for (int i = 0; i < 600; i += 37) {
            assertThat(viaD1.search((char) ('a' + i % 26) + "-conc-" + i)).map(String::new).contains("v" + i);
        }
    }
}
