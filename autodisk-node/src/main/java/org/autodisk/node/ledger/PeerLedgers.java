package org.autodisk.node.ledger;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.peer.PeerChannel;
import org.autodisk.node.peer.PeerException;
import org.autodisk.node.wire.LedgerAppendRequest;
import org.autodisk.node.wire.LedgerHandover;
import org.autodisk.node.wire.LedgerReadRequest;
import org.autodisk.node.wire.LedgerWire;
import org.autodisk.node.wire.PeerOp;
import org.autodisk.node.wire.PeerResponses;

/**
 * {@link LedgerPeers} over a node's peer channel: LEDGER_APPEND, LEDGER_FENCE, LEDGER_LEASE and LEDGER_READ frames;
 * a log node's refusal comes back as the {@link LedgerException} it raised, a lost connection as UNAVAILABLE.
 */
final class PeerLedgers implements LedgerPeers {

    private final PeerChannel peers;

    PeerLedgers(PeerChannel peers) {
        this.peers = peers;
    }

    @Override
    public CompletableFuture<Long> append(String logNode, long ledgerId, long fragmentStart, boolean recovery,
            long lac, List<LedgerEntry> entries) {
        byte[] body = new LedgerAppendRequest(ledgerId, fragmentStart, recovery, lac,
                entries.stream().map(LedgerEntry::toRecord).toList()).encode();
        return send(logNode, PeerOp.LEDGER_APPEND.request(body)).thenApply(PeerResponses::parseLsn);
    }

    @Override
    public CompletableFuture<Fenced> fence(String logNode, long ledgerId) {
        return send(logNode, PeerOp.LEDGER_FENCE.request(LedgerWire.fence(ledgerId))).thenApply(body -> {
            long[] pair = PeerResponses.parseLsnPair(body);
            return new Fenced(pair[0], pair[1]);
        });
    }

    @Override
    public CompletableFuture<List<Long>> confirm(String logNode, List<Long> ledgerIds) {
        return send(logNode, PeerOp.LEDGER_LEASE.request(LedgerWire.ledgerIds(ledgerIds)))
                .thenApply(LedgerWire::parseFencedResult);
    }

    @Override
    public CompletableFuture<List<LedgerEntry>> read(String logNode, long ledgerId, long from, int max) {
        return send(logNode, PeerOp.LEDGER_READ.request(new LedgerReadRequest(ledgerId, from, max).encode()))
                .thenApply(body -> LedgerWire.parseEntries(body).stream()
                        .map(r -> LedgerEntry.of(ledgerId, r)).toList());
    }

    @Override
    public CompletableFuture<Void> handOver(String dataNode, LedgerHandover handover) {
        return send(dataNode, PeerOp.LEDGER_HANDOVER.request(handover.encode())).thenApply(body -> null);
    }

    /** Sends a frame; completes with the OK answer's body, or fails with the log node's refusal. */
    private CompletableFuture<byte[]> send(String logNode, Frame frame) {
        CompletableFuture<Frame> answer;
        try {
            answer = peers.send(logNode, frame);
        } catch (RuntimeException e) { // refused before anything was sent
            return CompletableFuture.failedFuture(e instanceof LedgerException l ? l
                    : LedgerException.notSent("log node " + logNode + " could not be sent to: " + e.getMessage()));
        }
        return answer.handle((resp, err) -> {
            if (err != null) {
                throw unavailable(logNode, LedgerPeersSupport.cause(err));
            }
            Status status = Responses.status(resp.body());
            if (status != Status.OK) {
                throw LedgerException.fromStatus(status, Responses.errorMessage(resp.body()));
            }
            return resp.body();
        });
    }

    private static LedgerException unavailable(String logNode, RuntimeException e) {
        if (e instanceof LedgerException l) {
            return l;
        }
        String message = "log node " + logNode + " did not answer: " + e.getMessage();
        return notSent(e) ? LedgerException.notSent(message)
                : new LedgerException(LedgerException.Kind.UNAVAILABLE, message);
    }

    /** Whether the peer channel says the request never left this node (not a deadline: a late write may go out). */
    private static boolean notSent(RuntimeException e) {
        return e instanceof PeerException pe && pe.status() == Status.NODE_UNAVAILABLE && !pe.written();
    }
}
