package org.autodisk.node.failure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.meta.Member;
import org.autodisk.node.meta.MemberState;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.peer.PeerChannel;
import org.autodisk.node.peer.PeerException;
import org.autodisk.node.wire.Heartbeat;
import org.junit.jupiter.api.Test;

/**
 * The failure detector on a scripted clock and links that can be cut one way or both: a node is failed only when a
 * majority of the other members that are up suspect it, never because one observer lost it; suspicions clear when the
 * node is heard again, and a stale word counts for nothing.
 */
class FailureDetectorTest {

    private static final long MS = 1_000_000L;
    private static final List<String> IDS = List.of("d1", "d2", "d3", "l1");

    private final AtomicLong now = new AtomicLong();
    private final Map<String, FailureDetector> detectors = new LinkedHashMap<>();
    private final Set<String> cut = new HashSet<>();
    private final List<String> suspicions = new ArrayList<>();
    private MetaState state = state(MemberState.UP);

    private static MetaState state(MemberState d3) {
        List<Member> members = IDS.stream().map(id -> new Member(id, id.startsWith("l") ? "log" : "data", id + ":1",
                id.equals("d3") ? d3 : MemberState.UP)).toList();
        return new MetaState(1, "range", members, List.of(), 0, new MetaState.Creation(List.of("d1"), List.of()));
    }

    FailureDetectorTest() {
        for (String id : IDS) {
            detectors.put(id, new FailureDetector(id, () -> state, peers(id), 100, 400, now::get,
                    (node, why) -> suspicions.add(id + " suspects " + node)));
        }
    }

    /** A channel whose sends reach the other detector at once, unless the link either way is cut. */
    private PeerChannel peers(String from) {
        return new PeerChannel() {
            @Override
            public CompletableFuture<Frame> send(String to, Frame request) {
                if (cut.contains(from + ">" + to)) {
                    return CompletableFuture.failedFuture(new PeerException(Status.NODE_UNAVAILABLE, "cut"));
                }
                Heartbeat answer = detectors.get(to).answer(Heartbeat.decode(request.body()));
                return cut.contains(to + ">" + from) ? new CompletableFuture<>()
                        : CompletableFuture.completedFuture(request.response(answer.encodeAnswer()));
            }

            @Override
            public void close() {
            }
        };
    }

    private void cutBothWays(String a, String b) {
        cut.add(a + ">" + b);
        cut.add(b + ">" + a);
    }

    /** Every detector ticks every 100 ms for the given time. */
    private void run(long ms) {
        for (long t = 0; t < ms; t += 100) {
            now.addAndGet(100 * MS);
            detectors.values().forEach(FailureDetector::tick);
        }
    }

    @Test
    void aNodeEveryoneLosesIsFailedAndAnsweringAgainClearsTheSuspicions() {
        run(1000);
        assertThat(IDS).noneMatch(id -> detectors.get("d1").failed(state, id));
        IDS.stream().filter(id -> !id.equals("d3")).forEach(id -> cutBothWays(id, "d3"));
        run(300);
        assertThat(detectors.get("d1").failed(state, "d3")).as("not before failure.suspect-ms").isFalse();
        run(300);
        assertThat(detectors.get("d1").suspectedBy(state, "d3")).containsExactly("d1", "d2", "l1");
        assertThat(detectors.get("d1").failed(state, "d3")).isTrue();
        assertThat(detectors.get("d2").failed(state, "d3")).isTrue();
        assertThat(suspicions).contains("d1 suspects d3", "d2 suspects d3", "l1 suspects d3");
        assertThat(detectors.get("d1").lastHeardMs("d3")).isGreaterThanOrEqualTo(400);

        cut.clear();
        run(200);
        assertThat(IDS).noneMatch(id -> detectors.get("d1").failed(state, id));
        assertThat(detectors.get("d1").suspects("d3")).isFalse();
    }

    @Test
    void oneObserverThatLosesANodeNeverFailsIt() {
        run(500);
        cutBothWays("d1", "d3");
        run(2000);
        assertThat(detectors.get("d1").suspects("d3")).isTrue();
        assertThat(detectors.get("d1").failed(state, "d3")).as("only d1 suspects d3").isFalse();
        assertThat(detectors.get("d3").failed(state, "d1")).as("only d3 suspects d1").isFalse();
        assertThat(FailoverCoordinator.coordinator(state, detectors.get("d3"))).contains("d1");
    }

    @Test
    void aNodeCutOffFromEveryoneFailsNobodyWhileTheOthersFailIt() {
        run(500);
        IDS.stream().filter(id -> !id.equals("d1")).forEach(id -> cutBothWays(id, "d1"));
        run(1000);
        assertThat(detectors.get("d1").suspectedBy(state, "d2")).as("its word about the others is its own only, "
                + "the others' is stale").containsExactly("d1");
        assertThat(IDS).noneMatch(id -> detectors.get("d1").failed(state, id));
        assertThat(detectors.get("d2").failed(state, "d1")).isTrue();
        assertThat(FailoverCoordinator.coordinator(state, detectors.get("d2"))).as("d1 cannot coordinate")
                .contains("d2");
    }

    @Test
    void aMemberNeverHeardSinceTheStartIsSuspectedOnlyAfterTheGrace() {
        IDS.stream().filter(id -> !id.equals("d3")).forEach(id -> cutBothWays(id, "d3"));
        run(9_500);
        assertThat(detectors.get("d1").suspects("d3")).as("a whole cluster starts seconds apart").isFalse();
        run(1_000);
        assertThat(detectors.get("d1").suspects("d3")).isTrue();
        assertThat(suspicions).contains("d1 suspects d3");
    }

    @Test
    void aMemberThatJoinsLongAfterTheStartHasTheGraceFromWhenItIsSeenUp() {
        state = state(MemberState.JOINING);
        IDS.stream().filter(id -> !id.equals("d3")).forEach(id -> cutBothWays(id, "d3"));
        run(60_000);
        state = state(MemberState.UP);
        run(500);
        assertThat(detectors.get("d1").suspects("d3")).as("its first heartbeat may still be on its way").isFalse();
        run(10_000);
        assertThat(detectors.get("d1").suspects("d3")).isTrue();
    }

    @Test
    void aFailedMemberObservesNobodyAndAJoiningOneIsNotSuspected() {
        state = state(MemberState.FAILED);
        assertThat(FailureDetector.observers(state, "d1")).containsExactly("d2", "l1");
        state = state(MemberState.JOINING);
        cutBothWays("d1", "d3");
        run(12_000);
        assertThat(detectors.get("d1").suspects("d3")).isFalse();
    }
}
