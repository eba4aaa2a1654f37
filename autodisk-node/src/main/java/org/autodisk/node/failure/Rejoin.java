package org.autodisk.node.failure;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.autodisk.node.meta.Member;
import org.autodisk.node.meta.MemberState;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.Metadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node the cluster declared failed that is alive again (restarted, woken from a pause, or its partition healed):
 * once it hears most of the other members, it drops what it holds of ranges that moved on without it (its role
 * says what: a data node's store spans of ranges it no longer owns), then commits itself {@code up} again. From then
 * on it is a normal member the balancer may move ranges to. Its old ledgers are fenced already: the new owners
 * recovered them.
 */
public final class Rejoin {

    private static final Logger LOG = LoggerFactory.getLogger(Rejoin.class);

    private final String self;
    private final Metadata metadata;
    private final FailureDetector detector;
    private final Predicate<MetaState> dropStale;
    private final Duration timeout;
    private final AtomicBoolean running = new AtomicBoolean();

    /**
     * Creates the rejoin; the node calls {@link #check} after every heartbeat round.
     *
     * @param self      this node
     * @param metadata  the metadata
     * @param detector  this node's failure detector
     * @param dropStale drops what the node holds of ranges that moved on (runs on the caller's thread); false while
     *                  it cannot drop all of it yet
     * @param timeout   how long the metadata change may take
     */
    public Rejoin(String self, Metadata metadata, FailureDetector detector, Predicate<MetaState> dropStale,
            Duration timeout) {
        this.self = self;
        this.metadata = metadata;
        this.detector = detector;
        this.dropStale = dropStale;
        this.timeout = timeout;
    }

    /** Rejoins if the metadata has this node failed and it hears most of the others. */
    public void check() {
        MetaState s = metadata.current();
        Member me = s.member(self);
        if (me == null || me.state() != MemberState.FAILED || !hearsMost(s) || !running.compareAndSet(false, true)) {
            return;
        }
        try {
            LOG.warn("{}: the cluster declared this node failed (metadata v{}); it drops what moved on without it "
                    + "and rejoins", self, s.version());
            if (!dropStale.test(s)) {
                running.set(false);
                return;
            }
            metadata.submit(new MetaCommand.SetMemberState(self, MemberState.FAILED, MemberState.UP), timeout)
                    .whenComplete((r, err) -> {
                        running.set(false);
                        if (err == null && r.applied()) {
                            LOG.info("{}: is up again (metadata v{})", self, r.version());
                        } else {
                            LOG.info("{}: rejoin not committed yet: {}", self, err != null ? err.toString()
                                    : r.refusal());
                        }
                    });
        } catch (RuntimeException e) {
            running.set(false);
            LOG.warn("{}: rejoin failed, tried again at the next check: {}", self, e.toString());
        }
    }

    /** Hears a majority of the other members that are up (else it would only be declared failed again). */
    private boolean hearsMost(MetaState s) {
        List<String> others = FailureDetector.observers(s, self);
        long heard = others.stream().filter(o -> !detector.suspects(o)).count();
        return others.isEmpty() || heard * 2 > others.size();
    }
}
