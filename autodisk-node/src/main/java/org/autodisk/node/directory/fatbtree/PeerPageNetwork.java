package org.autodisk.node.directory.fatbtree;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.peer.PeerChannel;
import org.autodisk.node.wire.PeerOp;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Page messages over the node's peer channel, one PAGE_MESSAGE request each, sent to each peer one at a time in the
 * order they were given: the next goes once the peer answered that it took the previous one (applied, and written
 * to its page store). A message the peer did not take - it is down, restarting or did not answer - is sent again,
 * after a back-off that grows to {@link #MAX_BACKOFF_MS}, until it is; so a change waits for a node that is down and
 * goes on when it is back. Only a message the peer refuses as wrong (malformed, or the peer runs another directory)
 * is dropped, with an ERROR.
 */
final class PeerPageNetwork implements PageNetwork {

    /** The longest wait between two tries of one message. */
    static final long MAX_BACKOFF_MS = 2_000;
    /** How long a page fetch waits for its answer. */
    static final long FETCH_TIMEOUT_MS = 5_000;

    private static final Logger LOG = LoggerFactory.getLogger(PeerPageNetwork.class);

    private final PeerChannel peers;
    private final Map<String, Outbox> outboxes = new ConcurrentHashMap<>();
    private final ScheduledExecutorService retries = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("page-message-retry").daemon().factory());

    PeerPageNetwork(PeerChannel peers) {
        this.peers = peers;
    }

    @Override
    public void send(String from, String to, PageMessage m) {
        outboxes.computeIfAbsent(to, Outbox::new).add(new Pending(from, m));
    }

    @Override
    public CompletableFuture<PageFetch.Answer> fetch(String from, String to, long page) {
        return peers.send(to, PeerOp.PAGE_FETCH.request(PageFetch.encodeRequest(from, page)))
                .orTimeout(FETCH_TIMEOUT_MS, TimeUnit.MILLISECONDS).thenApply(resp -> {
                    if (Responses.status(resp.body()) != Status.OK) {
                        throw new IllegalStateException(to + " answered " + Responses.status(resp.body()) + ": "
                                + Responses.errorMessage(resp.body()));
                    }
                    return PageFetch.decodeAnswer(Responses.parseBytes(resp.body()));
                });
    }

    @Override
    public void close() {
        retries.shutdownNow();
    }

    private record Pending(String from, PageMessage message) {
    }

    /** The messages to one peer, the first in flight. */
    private final class Outbox {

        private final String to;
        private final Deque<Pending> queue = new ArrayDeque<>();
        private boolean busy;
        private int failures;

        Outbox(String to) {
            this.to = to;
        }

        synchronized void add(Pending p) {
            queue.add(p);
            if (!busy) {
                busy = true;
                sendHead();
            }
        }

        private void sendHead() {
            Pending p = queue.peek();
            Frame request = PeerOp.PAGE_MESSAGE.request(PageMessageCodec.encode(p.from(), p.message()));
            peers.send(to, request).whenComplete((resp, error) -> answered(p, resp, error));
        }

        private synchronized void answered(Pending p, Frame resp, Throwable error) {
            Status status = error == null ? Responses.status(resp.body()) : null;
            if (status == Status.OK || status == Status.MALFORMED || status == Status.INVALID_ARGUMENT) {
                if (status != Status.OK) {
                    LOG.error("{}: {} refused page message {}, dropped: {}", p.from(), to, describe(p.message()),
                            Responses.errorMessage(resp.body()));
                } else if (failures > 0) {
                    LOG.info("{}: {} takes page messages again after {} tries", p.from(), to, failures);
                }
                failures = 0;
                queue.poll();
                if (queue.isEmpty()) {
                    busy = false;
                } else {
                    sendHead();
                }
                return;
            }
            retryLater(p, error != null ? error.toString() : status + ": " + Responses.errorMessage(resp.body()));
        }

        private void retryLater(Pending p, String why) {
            if (failures++ == 0 || failures % 50 == 0) {
                LOG.warn("{}: page message {} to {} not taken ({} tries, {} queued), sending it again: {}", p.from(),
                        describe(p.message()), to, failures, queue.size(), why);
            }
            long wait = Math.min(MAX_BACKOFF_MS, 50L << Math.min(failures, 6));
            try {
                retries.schedule(() -> {
                    synchronized (this) {
                        sendHead();
                    }
                }, wait, TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.RejectedExecutionException closed) {
                busy = false;
            }
        }
    }

    private static String describe(PageMessage m) {
        return m instanceof PageMessage.Batch b ? "Batch[change=" + b.batch().change() + ", pages="
                + b.batch().puts().size() + "]" : m.toString();
    }
}
