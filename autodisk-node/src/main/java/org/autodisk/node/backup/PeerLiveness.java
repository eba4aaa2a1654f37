package org.autodisk.node.backup;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.peer.PeerChannel;
import org.autodisk.node.wire.PeerOp;

/**
 * Whether a peer answers, asked with NODE_INFO at most once per interval (the answer is remembered until then).
 * Asked from the catch-up thread only, so it may wait for the answer.
 */
final class PeerLiveness {

    private static final long ASK_TIMEOUT_MS = 1000;

    private final PeerChannel peers;
    private final long intervalNanos;
    private final Map<String, Long> askedAt = new ConcurrentHashMap<>();
    private final Map<String, Boolean> answered = new ConcurrentHashMap<>();

    PeerLiveness(PeerChannel peers, long intervalNanos) {
        this.peers = peers;
        this.intervalNanos = intervalNanos;
    }

    boolean answers(String peer) {
        long now = System.nanoTime();
        Long last = askedAt.get(peer);
        if (last == null || now - last >= intervalNanos) {
            askedAt.put(peer, now);
            answered.put(peer, ask(peer));
        }
        return answered.getOrDefault(peer, true);
    }

    private boolean ask(String peer) {
        try {
            Frame resp = peers.send(peer, PeerOp.NODE_INFO.request(new byte[0]))
                    .get(ASK_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            return Responses.status(resp.body()) == Status.OK;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        } catch (Exception e) {
            return false;
        }
    }
}
