package org.autodisk.node.failure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.autodisk.core.protocol.Frame;
import org.autodisk.node.meta.InMemoryMetadataGroup;
import org.autodisk.node.meta.Member;
import org.autodisk.node.meta.MemberState;
import org.autodisk.node.meta.MetaBootstrap;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.Metadata;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.meta.RangeState;
import org.autodisk.node.peer.PeerChannel;
import org.autodisk.node.rules.FailoverDecision;
import org.autodisk.node.wire.Heartbeat;
import org.autodisk.rules.NodeFailed;
import org.junit.jupiter.api.Test;

/**
 * The failover coordinator on an in-memory metadata group and a detector fed by hand: it declares a member failed
 * only when a quorum of observers suspects it, asks the rules about a failed node that still holds ranges, commits the
 * promotions they ask for — none while a rule holds the failover — and tells the node's balancer.
 */
class FailoverCoordinatorTest {

    private static final long MS = 1_000_000L;

    private final InMemoryMetadataGroup group = new InMemoryMetadataGroup();
    private final Metadata d1 = group.member("d1");
    private final AtomicLong now = new AtomicLong();
    private final FailureDetector detector = new FailureDetector("d1", d1::current, silentPeers(), 100, 400,
            now::get, (node, why) -> { });
    private final List<NodeFailed> asked = new ArrayList<>();
    private final AtomicInteger promoted = new AtomicInteger();
    private boolean hold;

    FailoverCoordinatorTest() {
        List<Member> members = List.of(new Member("d1", "data", "h1:1", MemberState.UP),
                new Member("d2", "data", "h2:1", MemberState.UP), new Member("d3", "data", "h3:1", MemberState.UP),
                new Member("l1", "log", "h4:1", MemberState.UP));
        d1.submit(MetaBootstrap.command("range", members, List.of("d1", "d2", "d3"), List.of(), id -> List.of("l1")),
                Duration.ofSeconds(1)).join();
    }

    private FailoverCoordinator coordinator() {
        return new FailoverCoordinator("d1", d1, detector, failed -> {
            asked.add(failed);
            return decide(failed);
        }, Duration.ofSeconds(1), now::get, promoted::incrementAndGet);
    }

    /** The shipped rules' decision, and a user rule's hold when asked for (the rules fire in any order). */
    private FailoverDecision decide(NodeFailed failed) {
        FailoverDecision d = new FailoverDecision();
        failed.owned().stream().filter(r -> r.promotable()).forEach(r -> d.promote(r.rangeId(), "test"));
        if (hold) {
            d.hold("maintenance");
        }
        return d;
    }

    private static PeerChannel silentPeers() {
        return new PeerChannel() {
            @Override
            public CompletableFuture<Frame> send(String nodeId, Frame request) {
                return new CompletableFuture<>();
            }

            @Override
            public void close() {
            }
        };
    }

    /** d3 and l1 keep talking to d1 and say whom they suspect; d2 is never heard. */
    private void time(long ms, List<String> suspects) {
        for (long t = 0; t < ms; t += 100) {
            now.addAndGet(100 * MS);
            detector.answer(new Heartbeat("d3", 1, suspects));
            detector.answer(new Heartbeat("l1", 1, suspects));
            detector.tick();
        }
    }

    @Test
    void aMemberIsFailedOnlyOnceAQuorumSuspectsItAndItsRangesGoToTheirBackups() {
        FailoverCoordinator c = coordinator();
        time(FailureDetector.STARTUP_GRACE_NANOS / MS + 500, List.of());
        c.check();
        assertThat(d1.current().member("d2").state()).as("only d1 suspects d2").isEqualTo(MemberState.UP);

        time(200, List.of("d2"));
        c.check();
        await().until(() -> d1.current().member("d2").state() == MemberState.FAILED);
        RangeDescriptor before = d1.current().ranges().stream().filter(r -> r.owner().equals("d2")).findFirst()
                .orElseThrow();
        c.check();
        await().until(() -> d1.current().range(before.id()).owner().equals(before.backup()));
        RangeDescriptor after = d1.current().range(before.id());
        assertThat(after.epoch()).isEqualTo(before.epoch() + 1);
        assertThat(after.state()).isEqualTo(RangeState.RECOVERING);
        assertThat(asked).last().satisfies(f -> assertThat(f.nodeId()).isEqualTo("d2"));
        await().until(() -> promoted.get() == 1);
    }

    @Test
    void aHeldFailoverPromotesNothingAndIsAskedAgain() {
        FailoverCoordinator c = coordinator();
        hold = true;
        time(FailureDetector.STARTUP_GRACE_NANOS / MS + 500, List.of("d2"));
        c.check();
        await().until(() -> d1.current().member("d2").state() == MemberState.FAILED);
        c.check();
        c.check();
        MetaState s = d1.current();
        assertThat(s.ranges()).as("held: every range stays").noneMatch(r -> r.state() == RangeState.RECOVERING);
        assertThat(asked).hasSizeGreaterThanOrEqualTo(2).allSatisfy(f -> assertThat(f.nodeId()).isEqualTo("d2"));
        assertThat(promoted).hasValue(0);

        hold = false;
        c.check();
        await().until(() -> d1.current().ranges().stream().anyMatch(r -> r.state() == RangeState.RECOVERING));
    }
}
