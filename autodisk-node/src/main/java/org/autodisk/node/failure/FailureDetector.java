package org.autodisk.node.failure;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.meta.Member;
import org.autodisk.node.meta.MemberState;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.peer.PeerChannel;
import org.autodisk.node.wire.Heartbeat;
import org.autodisk.node.wire.PeerOp;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's failure detector: every {@code failure.heartbeat-ms} it sends a HEARTBEAT to every other member, naming
 * the members it suspects (not heard from for {@code failure.suspect-ms}: no heartbeat from them and no answer to its
 * own); every heartbeat taken or answered tells it the sender's suspicions in turn. A member is <em>failed</em> in
 * this node's view when a majority of the other members that are up (this node among them), and at least two of them
 * when there are two, suspect it in their latest fresh word: one observer cut off from a healthy node never fails it.
 * Fixed timeouts rather than phi-accrual, because the decision needs a quorum of observers anyway and a fixed bound
 * is what the owners' leases are reasoned against (see docs/failures.md). A member this node has not heard from
 * since it first saw it up (when this node started, or when the member joined) is suspected only after a grace
 * ({@link #STARTUP_GRACE_NANOS}, or twice the suspicion time if longer): when a whole cluster starts, its nodes come
 * up seconds apart, and a node that joins is up in the metadata a moment before its first heartbeat arrives.
 */
public final class FailureDetector {

    private static final Logger LOG = LoggerFactory.getLogger(FailureDetector.class);
    /** How long after its start a node waits before it suspects a member it has not heard from at all. */
    static final long STARTUP_GRACE_NANOS = TimeUnit.SECONDS.toNanos(10);

    /** What one observer said last, and when this node heard it. */
    private record View(Set<String> suspects, long heardAt) {
    }

    private final String self;
    private final Supplier<MetaState> metadata;
    private final PeerChannel peers;
    private final long heartbeatMs;
    private final long suspectNanos;
    private final LongSupplier clock;
    private final BiConsumer<String, String> onSuspect;
    private final long started;
    private final Map<String, Long> lastHeard = new ConcurrentHashMap<>();
    /** When this node first saw each member in a state other than joining. */
    private final Map<String, Long> seenUp = new ConcurrentHashMap<>();
    private final Map<String, View> views = new ConcurrentHashMap<>();
    private final Set<String> suspected = ConcurrentHashMap.newKeySet();

    /**
     * Creates the detector; the node calls {@link #tick} every heartbeat period.
     *
     * @param self        this node
     * @param metadata    the committed metadata (its members)
     * @param peers       the peer channel
     * @param heartbeatMs the heartbeat period
     * @param suspectMs   how long unheard before suspected (0: detection off)
     * @param clock       monotonic nanoseconds
     * @param onSuspect   told once per suspicion: the node and why (raises {@code NodeSuspected} in the rules)
     */
    public FailureDetector(String self, Supplier<MetaState> metadata, PeerChannel peers, long heartbeatMs,
            long suspectMs, LongSupplier clock, BiConsumer<String, String> onSuspect) {
        this.self = self;
        this.metadata = metadata;
        this.peers = peers;
        this.heartbeatMs = heartbeatMs;
        this.suspectNanos = TimeUnit.MILLISECONDS.toNanos(suspectMs);
        this.clock = clock;
        this.onSuspect = onSuspect;
        this.started = clock.getAsLong();
    }

    /**
     * Tells whether detection is on.
     *
     * @return false with {@code failure.suspect-ms: 0}
     */
    public boolean enabled() {
        return suspectNanos > 0;
    }

    /** Sends a heartbeat to every other member and updates this node's suspicions. */
    public void tick() {
        MetaState s = metadata.get();
        updateSuspicions(s);
        Heartbeat mine = heartbeat(s);
        byte[] body = mine.encode();
        for (Member m : s.members()) {
            if (!m.id().equals(self)) {
                send(m.id(), body);
            }
        }
    }

    private void send(String peer, byte[] body) {
        try {
            peers.send(peer, PeerOp.HEARTBEAT.request(body)).orTimeout(heartbeatMs * 4, TimeUnit.MILLISECONDS)
                    .whenComplete((resp, err) -> {
                        if (err == null && Responses.status(resp.body()) == Status.OK) {
                            heard(Heartbeat.decodeAnswer(resp.body()));
                        }
                    });
        } catch (RuntimeException e) {
            LOG.debug("{}: heartbeat to {} not sent: {}", self, peer, e.toString());
        }
    }

    private Heartbeat heartbeat(MetaState s) {
        return new Heartbeat(self, s.version(), List.copyOf(new TreeSet<>(suspected)));
    }

    /**
     * Takes a heartbeat from another node and returns this node's own, as the answer.
     *
     * @param from the heartbeat taken
     * @return this node's heartbeat
     */
    public Heartbeat answer(Heartbeat from) {
        heard(from);
        return heartbeat(metadata.get());
    }

    private void heard(Heartbeat hb) {
        long now = clock.getAsLong();
        lastHeard.put(hb.sender(), now);
        views.put(hb.sender(), new View(Set.copyOf(hb.suspects()), now));
        if (suspected.remove(hb.sender())) {
            LOG.info("{}: {} is heard again", self, hb.sender());
        }
    }

    private void updateSuspicions(MetaState s) {
        if (!enabled()) {
            return;
        }
        long now = clock.getAsLong();
        for (Member m : s.members()) {
            if (m.id().equals(self) || m.state() == MemberState.JOINING) {
                continue;
            }
            Long heard = lastHeard.get(m.id());
            long seen = Math.max(started, seenUp.computeIfAbsent(m.id(), k -> now));
            long last = heard != null ? heard : seen + Math.max(STARTUP_GRACE_NANOS, 2 * suspectNanos) - suspectNanos;
            if (now - last >= suspectNanos && suspected.add(m.id())) {
                if (!Objects.equals(heard, lastHeard.get(m.id()))) {
                    suspected.remove(m.id()); // heard as this looked
                    continue;
                }
                String why = heard != null ? "not heard from for " + TimeUnit.NANOSECONDS.toMillis(now - heard) + " ms"
                        : "not heard from since this node saw it up " + TimeUnit.NANOSECONDS.toMillis(now - seen)
                                + " ms ago";
                LOG.info("{}: suspects {}: {}", self, m.id(), why);
                onSuspect.accept(m.id(), why);
            }
        }
    }

    /**
     * This node ignored every heartbeat while it kept silent: it starts again as if it had just heard every member,
     * rather than suspect them all for what it did not listen to.
     */
    public void silenceEnded() {
        long now = clock.getAsLong();
        for (Member m : metadata.get().members()) {
            if (!m.id().equals(self)) {
                lastHeard.put(m.id(), now);
            }
        }
        suspected.clear();
    }

    /**
     * Returns how long ago this node last heard from a member.
     *
     * @param node the member
     * @return milliseconds, or -1 if never since this node started
     */
    public long lastHeardMs(String node) {
        Long at = lastHeard.get(node);
        return at == null ? -1 : TimeUnit.NANOSECONDS.toMillis(clock.getAsLong() - at);
    }

    /**
     * Tells whether this node itself suspects a member.
     *
     * @param node the member
     * @return true if suspected here
     */
    public boolean suspects(String node) {
        return suspected.contains(node);
    }

    /**
     * Returns the members that suspect a node, among the other members that are up, by their latest word heard
     * within the suspicion time (this node's own suspicion counts too).
     *
     * @param s    the metadata
     * @param node the node
     * @return the observers that suspect it
     */
    public List<String> suspectedBy(MetaState s, String node) {
        long now = clock.getAsLong();
        List<String> by = new ArrayList<>();
        for (String o : observers(s, node)) {
            View v = views.get(o);
            boolean fresh = v != null && now - v.heardAt() < suspectNanos;
            if (o.equals(self) ? suspected.contains(node) : fresh && v.suspects().contains(node)) {
                by.add(o);
            }
        }
        return by;
    }

    /**
     * Returns the members that observe a node: every other member that is up.
     *
     * @param s    the metadata
     * @param node the node
     * @return their ids
     */
    public static List<String> observers(MetaState s, String node) {
        return s.members().stream().filter(m -> m.state() == MemberState.UP && !m.id().equals(node))
                .map(Member::id).toList();
    }

    /**
     * Tells whether a member is failed in this node's view: a majority of its observers, and at least two when it has
     * two or more, suspect it.
     *
     * @param s    the metadata
     * @param node the node
     * @return true if failed
     */
    public boolean failed(MetaState s, String node) {
        if (!enabled()) {
            return false;
        }
        int observers = observers(s, node).size();
        int by = suspectedBy(s, node).size();
        return observers > 0 && by * 2 > observers && by >= Math.min(2, observers);
    }
}
