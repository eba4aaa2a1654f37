package org.autodisk.node.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.autodisk.core.cluster.MetricNames;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.InsertRequest;
import org.autodisk.core.protocol.KeyRequest;
import org.autodisk.core.protocol.Opcode;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.core.protocol.Trace;
import org.autodisk.core.protocol.TraceHop;
import org.autodisk.core.protocol.TraverseRequest;
import org.autodisk.core.protocol.TraverseResult;
import org.autodisk.node.InMemoryCluster;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.RangeDescriptor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Routing logic with in-memory stores and peers: no sockets, no disks. */
class InMemoryRoutingTest {

    private InMemoryCluster cluster;

    @BeforeEach
    void start() throws InterruptedException {
        cluster = new InMemoryCluster(3, Map.of("limits.max-response-bytes", 1000));
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    private Frame call(int node, Opcode op, byte[] body) {
        return cluster.call(node, Frame.request(op, 1, body)).join();
    }

    @Test
    void forwardsToTheOwnerAndRelaysTheReply() {
        byte[] key = {(byte) 0xF0};
        Frame r = call(0, Opcode.INSERT, new InsertRequest(key, new byte[] {9}).encode());
        assertThat(Responses.status(r.body())).isEqualTo(Status.OK);
        assertThat(cluster.node(2).store().get(key)).containsExactly(9);
        assertThat(cluster.node(0).metrics().snapshot()).containsEntry(MetricNames.FORWARDED, 1.0);
    }

    @Test
    void tracedRequestCarriesOneHopPerNode() {
        Frame req = new Frame(1, Opcode.SEARCH.code(), Frame.FLAG_TRACE, 0, 5, new KeyRequest(new byte[] {0x60})
                .encode());
        Frame r = cluster.call(0, req).join();
        assertThat(r.isTraced()).isTrue();
        List<TraceHop> hops = Trace.hops(r.body());
        assertThat(hops).extracting(TraceHop::nodeId).containsExactly("d2", "d1");
        assertThat(Responses.parseSearch(Trace.strip(r.body()))).isNull();
    }

    @Test
    void unreachableOwnerFailsWithNodeUnavailableNamingIt() {
        cluster.peers(0).setUnreachable("d3", true);
        Frame r = call(0, Opcode.INSERT, new InsertRequest(new byte[] {(byte) 0xF1}, new byte[0]).encode());
        assertThat(Responses.status(r.body())).isEqualTo(Status.NODE_UNAVAILABLE);
        assertThat(Responses.errorMessage(r.body())).contains("d3");
    }

    @Test
    void disagreeingMapsEndAtTheHopLimitInsteadOfLooping() {
        MetaState current = cluster.node(0).metadata().current();
        cluster.node(0).directory().apply(withOwner(current, 0, "d2"));
        cluster.node(1).directory().apply(withOwner(current, 0, "d1"));
        Frame r = call(0, Opcode.SEARCH, new KeyRequest(new byte[] {1}).encode());
        assertThat(Responses.status(r.body())).isEqualTo(Status.HOP_LIMIT_EXCEEDED);
        assertThat(Responses.errorMessage(r.body())).contains("forward.hop-limit = 8");
    }

    @Test
    void aWrongMapOfTheSameVersionIsCorrectedByTheNodeItForwardsTo() {
        MetaState current = cluster.node(0).metadata().current();
        cluster.node(0).directory().apply(withOwner(current, 2, "d2"));
        cluster.node(1).directory().apply(withOwner(current, 2, "d3"));
        cluster.node(2).directory().apply(withOwner(current, 2, "d3"));
        Frame req = new Frame(1, Opcode.INSERT.code(), Frame.FLAG_TRACE, 0, 3,
                new InsertRequest(new byte[] {(byte) 0xF5}, new byte[] {1}).encode());
        Frame r = cluster.call(0, req).join();
        assertThat(Responses.status(Trace.strip(r.body()))).isEqualTo(Status.OK);
        assertThat(Trace.hops(r.body())).extracting(TraceHop::nodeId).containsExactly("d3", "d2", "d1");
        assertThat(cluster.node(2).store().get(new byte[] {(byte) 0xF5})).containsExactly(1);
    }

    @Test
    void traverseGathersAcrossNodesAndPagesAtTheResponseBudget() {
        for (int i = 0; i < 30; i++) {
            byte[] key = {(byte) (i * 8), 'k'};
            call(i % 3, Opcode.INSERT, new InsertRequest(key, new byte[100]).encode());
        }
        List<byte[]> seen = new ArrayList<>();
        byte[] from = new byte[0];
        int pages = 0;
        while (from != null) {
            Frame r = call(1, Opcode.TRAVERSE, new TraverseRequest(from, null, 1000).encode());
            TraverseResult page = Responses.parseTraverse(r.body());
            page.entries().forEach(e -> seen.add(e.key()));
            from = page.resumeKey();
            pages++;
        }
        assertThat(seen).hasSize(30);
        assertThat(pages).isGreaterThan(1);
        for (int i = 1; i < seen.size(); i++) {
            assertThat(java.util.Arrays.compareUnsigned(seen.get(i - 1), seen.get(i))).isNegative();
        }
    }

    /** A newer state, seen by one node only, in which another node owns a range. */
    private static MetaState withOwner(MetaState s, int rangeId, String owner) {
        List<RangeDescriptor> ranges = new ArrayList<>(s.ranges());
        RangeDescriptor r = s.range(rangeId);
        ranges.set(ranges.indexOf(r), new RangeDescriptor(r.id(), r.low(), r.high(), owner, r.backups(),
                r.logNodes(), r.epoch() + 1, r.generation(), r.state()));
        return new MetaState(s.version() + 1, s.directory(), s.members(), ranges, s.nextRangeId(), s.created());
    }
}
