package org.autodisk.node.rangelog;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.peer.PeerChannel;
import org.autodisk.node.wire.PeerOp;

/**
 * Which log nodes answer and take writes, asked with NODE_INFO ({@code WRITABLE}) on every {@link #probe} without
 * waiting: writers take replacements and restore their multiplicity from these, and new ledgers are opened on them.
 * A log node not asked yet counts as up; one whose journal failed says so and is not up until it restarted.
 */
final class LogNodesUp {

    private final PeerChannel peers;
    private final long timeoutMs;
    private final Map<String, Boolean> up = new ConcurrentHashMap<>();

    LogNodesUp(PeerChannel peers, long timeoutMs) {
        this.peers = peers;
        this.timeoutMs = timeoutMs;
    }

    /**
     * Asks every log node once more.
     *
     * @param logNodes the log nodes to ask
     * @return completes once every one answered or timed out (never fails)
     */
    CompletableFuture<Void> probe(List<String> logNodes) {
        List<CompletableFuture<Void>> asked = new ArrayList<>();
        for (String node : logNodes) {
            asked.add(peers.send(node, PeerOp.NODE_INFO.request(new byte[] {PeerOp.WRITABLE}))
                    .orTimeout(timeoutMs, TimeUnit.MILLISECONDS)
                    .handle((resp, err) -> {
                        up.put(node, err == null && Responses.status(resp.body()) == Status.OK);
                        return null;
                    }));
        }
        return CompletableFuture.allOf(asked.toArray(CompletableFuture[]::new));
    }

    /**
     * Returns the log nodes that answered when last asked, in the order given.
     *
     * @param logNodes the candidates
     * @return those up
     */
    List<String> up(List<String> logNodes) {
        return logNodes.stream().filter(n -> up.getOrDefault(n, true)).toList();
    }
}
