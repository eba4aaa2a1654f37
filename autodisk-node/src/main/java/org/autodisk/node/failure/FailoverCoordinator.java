package org.autodisk.node.failure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.autodisk.node.meta.CommandResult;
import org.autodisk.node.meta.Member;
import org.autodisk.node.meta.MemberState;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.Metadata;
import org.autodisk.node.meta.MigrationInfo;
import org.autodisk.node.meta.MigrationPhase;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.rules.FailoverDecision;
import org.autodisk.rules.FailedRange;
import org.autodisk.rules.NodeFailed;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Declares failed members and fails their ranges over, on one data node at a time: the coordinator, the lowest-id
 * data member that is up and not failed in its own view (any node takes over when it fails; two that both think they
 * coordinate for a moment are harmless, as every command compares on what it expects). At every check it commits
 * {@code member-state up -> failed} for each member its {@link FailureDetector} finds failed, and for each failed
 * member that still owns or backs up ranges evaluates {@code failover.drl} on a {@link NodeFailed} and commits what
 * the rules ask (promotions, dropped backups); a migration to or from a failed node, which can no longer end by
 * itself, is ended too. Nothing is decided behind the rules' back but these endings.
 */
public final class FailoverCoordinator {

    private static final Logger LOG = LoggerFactory.getLogger(FailoverCoordinator.class);
    /** A held failover is logged at most this often per node. */
    private static final long HOLD_LOG_NANOS = TimeUnit.SECONDS.toNanos(10);

    /** What the coordinator asks the rules: the node's failover.drl. */
    public interface Rules {
        /**
         * Evaluates a failed node's event.
         *
         * @param failed the event
         * @return what the rules ask
         */
        FailoverDecision failover(NodeFailed failed);
    }

    private final String self;
    private final Metadata metadata;
    private final FailureDetector detector;
    private final Rules rules;
    private final Duration timeout;
    private final LongSupplier clock;
    private final Runnable promoted;
    /** When this node first saw each member failed. */
    private final Map<String, Long> failedSince = new ConcurrentHashMap<>();
    /** Commands proposed and not answered yet, by a key naming what they change: never two at once. */
    private final Map<String, Boolean> inFlight = new ConcurrentHashMap<>();
    private final Map<String, Long> holdLogged = new ConcurrentHashMap<>();

    /**
     * Creates the coordinator; the node calls {@link #check} after every heartbeat round.
     *
     * @param self     this data node
     * @param metadata the metadata
     * @param detector this node's failure detector
     * @param rules    the failover rules
     * @param timeout  how long a metadata change may take
     * @param clock    monotonic nanoseconds
     * @param promoted told when a promotion committed (the node's balancer then fills the missing backups soon)
     */
    public FailoverCoordinator(String self, Metadata metadata, FailureDetector detector, Rules rules,
            Duration timeout, LongSupplier clock, Runnable promoted) {
        this.self = self;
        this.metadata = metadata;
        this.detector = detector;
        this.rules = rules;
        this.timeout = timeout;
        this.clock = clock;
        this.promoted = promoted;
    }

    /**
     * Returns the coordinator in a node's view: the lowest-id data member that is up and not failed in that view.
     *
     * @param s        the metadata
     * @param detector the node's detector
     * @return the coordinator, if any data node is up
     */
    public static Optional<String> coordinator(MetaState s, FailureDetector detector) {
        return s.members().stream().filter(m -> "data".equals(m.role()) && m.state() == MemberState.UP)
                .map(Member::id).filter(id -> !detector.failed(s, id)).min(Comparator.naturalOrder());
    }

    /** Declares the failed members, and fails over those that still hold ranges, if this node coordinates. */
    public void check() {
        MetaState s = metadata.current();
        if (!s.bootstrapped() || !detector.enabled() || !coordinator(s, detector).orElse("").equals(self)) {
            return;
        }
        for (Member m : s.members()) {
            if (m.state() == MemberState.UP && !m.id().equals(self) && detector.failed(s, m.id())) {
                declareFailed(s, m);
            }
        }
        failedSince.keySet().removeIf(id -> s.member(id) == null || s.member(id).state() != MemberState.FAILED);
        for (Member m : s.members()) {
            if (m.state() == MemberState.FAILED) {
                failOver(s, m);
            }
        }
    }

    private void declareFailed(MetaState s, Member m) {
        if (propose("member " + m.id(), new MetaCommand.SetMemberState(m.id(), MemberState.UP, MemberState.FAILED))) {
            List<String> observers = FailureDetector.observers(s, m.id());
            LOG.warn("{}: declaring {} ({} node) failed: suspected by {} of the {} other members that are up {}; "
                    + "last heard here {} ms ago", self, m.id(), m.role(), detector.suspectedBy(s, m.id()),
                    observers.size(), observers, detector.lastHeardMs(m.id()));
        }
    }

    private void failOver(MetaState s, Member m) {
        long since = failedSince.computeIfAbsent(m.id(), id -> clock.getAsLong());
        endMigrations(s, m.id());
        NodeFailed event = event(s, m, TimeUnit.NANOSECONDS.toMillis(clock.getAsLong() - since));
        if (event.owned().isEmpty() && event.backedUp().isEmpty()) {
            return;
        }
        FailoverDecision d = rules.failover(event);
        if (d.held()) {
            logHold(m.id(), d.holds());
            return;
        }
        for (FailoverDecision.Promotion p : d.promotions()) {
            RangeDescriptor r = s.range(p.rangeId());
            if (r != null && r.owner().equals(m.id()) && r.backup() != null && propose("range " + r.id(),
                    new MetaCommand.Promote(r.id(), r.epoch(), r.backup(), p.reason()))) {
                LOG.warn("{}: failover: promoting range {} {} of failed {} to its backup {} at epoch {}: {}", self,
                        r.id(), r.span(), m.id(), r.backup(), r.epoch() + 1, p.reason());
            }
        }
        for (FailoverDecision.BackupDrop b : d.drops()) {
            if (propose("range " + b.rangeId(), new MetaCommand.DropBackup(b.rangeId(), b.nodeId(), b.reason()))) {
                LOG.info("{}: failover: taking {} off the backups of range {}: {}", self, b.nodeId(), b.rangeId(),
                        b.reason());
            }
        }
    }

    /** A migration whose target failed, or whose source failed while it cleaned up, can no longer end by itself. */
    private void endMigrations(MetaState s, String failed) {
        for (MigrationInfo mi : s.migrations()) {
            boolean cutOver = mi.phase() == MigrationPhase.CLEANING_UP;
            if (!cutOver && mi.target().equals(failed)) {
                propose("migration " + mi.id(), new MetaCommand.EndMigration(mi.id(), true, "its target " + failed
                        + " failed"));
            } else if (cutOver && mi.source().equals(failed)) {
                propose("migration " + mi.id(), new MetaCommand.EndMigration(mi.id(), false, "its source " + failed
                        + " failed while it deleted its copy; it drops the copy when it returns"));
            }
        }
    }

    private NodeFailed event(MetaState s, Member m, long failedForMs) {
        List<FailedRange> owned = new ArrayList<>();
        List<FailedRange> backedUp = new ArrayList<>();
        for (RangeDescriptor r : s.ranges()) {
            if (r.owner().equals(m.id())) {
                owned.add(failedRange(s, r));
            } else if (r.backups().contains(m.id())) {
                backedUp.add(failedRange(s, r));
            }
        }
        return new NodeFailed(m.id(), m.role(), failedForMs, owned, backedUp);
    }

    private static FailedRange failedRange(MetaState s, RangeDescriptor r) {
        String backup = r.backup() == null ? "" : r.backup();
        Member b = backup.isEmpty() ? null : s.member(backup);
        return new FailedRange(r.id(), r.span(), r.owner(), backup, b != null && b.state() == MemberState.UP,
                r.epoch());
    }

    private void logHold(String node, List<String> why) {
        long now = clock.getAsLong();
        Long last = holdLogged.get(node);
        if (last == null || now - last >= HOLD_LOG_NANOS) {
            holdLogged.put(node, now);
            LOG.warn("{}: failover of failed {} held by the rules: {}", self, node, why);
        }
    }

    /** Proposes a command unless one about the same thing is under way; returns whether it was proposed. */
    private boolean propose(String key, MetaCommand command) {
        if (inFlight.putIfAbsent(key, Boolean.TRUE) != null) {
            return false;
        }
        CompletableFuture<CommandResult> f;
        try {
            f = metadata.submit(command, timeout);
        } catch (RuntimeException e) {
            inFlight.remove(key);
            LOG.warn("{}: failover: {} not proposed: {}", self, command, e.toString());
            return false;
        }
        f.whenComplete((r, err) -> {
            inFlight.remove(key);
            if (err != null) {
                LOG.warn("{}: failover: {} did not commit: {}", self, command, err.toString());
            } else if (!r.applied()) {
                LOG.info("{}: failover: {} refused: {}", self, command, r.refusal());
            } else if (command instanceof MetaCommand.Promote) {
                promoted.run();
            }
        });
        return true;
    }
}
