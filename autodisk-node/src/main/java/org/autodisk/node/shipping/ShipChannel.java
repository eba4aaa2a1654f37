package org.autodisk.node.shipping;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.autodisk.core.protocol.Frame;
import org.autodisk.node.wire.LogBatch;
import org.autodisk.node.wire.LogRecord;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.peer.PeerChannel;
import org.autodisk.node.wire.PeerOp;
import org.autodisk.node.wire.PeerResponses;

/**
 * The records on their way to one log node. Up to {@link #MAX_IN_FLIGHT} LOG_APPENDs are out at a time, each
 * carrying every record queued while the others were out (protocol-level group commit); they travel on one
 * connection and the log node appends them in arrival order, so records reach its log in LSN order.
 * Until the connection has carried one answer only one batch is out (so batches queued behind a connect
 * keep their order). Acknowledgements are cumulative. After a failure the channel is down; answers to batches
 * sent before it (an older generation) no longer count.
 */
final class ShipChannel {

    static final int MAX_IN_FLIGHT = 4;

    /** A batch closes once it holds this many bytes, so frames stay far below the frame limit. */
    static final long MAX_BATCH_BYTES = 1 << 20;

    private final String stream;
    private final String logNode;
    private final PeerChannel peers;
    private final int maxBatch;
    private final LogShipping owner;
    private final ArrayDeque<LogRecord> queue = new ArrayDeque<>();
    private int inFlight;
    private boolean confirmed;
    private long generation;
    private long lastSent;
    private volatile long ackedLsn;
    private volatile long failedThrough;
    private volatile boolean up = true;
    private volatile boolean held;
    private volatile String lastFailure = "";
    private long batches;

    ShipChannel(String stream, String logNode, PeerChannel peers, int maxBatch, LogShipping owner) {
        this.stream = stream;
        this.logNode = logNode;
        this.peers = peers;
        this.maxBatch = maxBatch;
        this.owner = owner;
    }

    void enqueue(LogRecord record) {
        Sent sent;
        synchronized (this) {
            queue.add(record);
            sent = sendIfPossible();
        }
        attach(sent);
    }

    /** A batch handed to the connection; its answer is attached after the lock is released. */
    private record Sent(CompletableFuture<Frame> response, long generation) {
    }

    /** Sends the next batch while holding the lock, so batches go onto the connection in LSN order. */
    private Sent sendIfPossible() {
        if (!canSend()) {
            return null;
        }
        List<LogRecord> batch = takeBatch();
        Frame frame = PeerOp.LOG_APPEND.request(new LogBatch(stream, batch, owner.durableLsn()).encode());
        return new Sent(peers.send(logNode, frame), generation);
    }

    private void attach(Sent sent) {
        if (sent != null) {
            sent.response().whenComplete((resp, err) -> done(sent.generation(), resp, err));
        }
    }

    private boolean canSend() {
        return !held && up && inFlight < (confirmed ? MAX_IN_FLIGHT : 1) && !queue.isEmpty();
    }

    private List<LogRecord> takeBatch() {
        List<LogRecord> batch = new ArrayList<>(Math.min(queue.size(), maxBatch));
        long bytes = 0;
        while (!queue.isEmpty() && batch.size() < maxBatch && (batch.isEmpty() || bytes < MAX_BATCH_BYTES)) {
            LogRecord r = queue.poll();
            batch.add(r);
            bytes += r.encodedSize();
        }
        inFlight++;
        batches++;
        lastSent = batch.get(batch.size() - 1).lsn();
        return batch;
    }

    private void done(long gen, Frame resp, Throwable err) {
        String failure = err != null ? String.valueOf(err.getCause() != null ? err.getCause().getMessage()
                : err.getMessage()) : Responses.status(resp.body()) != Status.OK
                ? Responses.errorMessage(resp.body()) : null;
        Sent next;
        synchronized (this) {
            if (gen != generation) {
                return;
            }
            inFlight--;
            if (failure == null) {
                ackedLsn = Math.max(ackedLsn, PeerResponses.parseLsn(resp.body()));
                confirmed = true;
            } else {
                fail(failure);
            }
            next = sendIfPossible();
        }
        attach(next);
        owner.progress();
    }

    private void fail(String failure) {
        lastFailure = failure;
        up = false;
        failedThrough = Math.max(failedThrough, queue.isEmpty() ? lastSent : queue.peekLast().lsn());
        queue.clear();
        inFlight = 0;
        confirmed = false;
        generation++;
    }

    /** Starts a resync: new records are queued but held back, and this log node does not count as up. */
    synchronized void hold() {
        queue.clear();
        held = true;
    }

    boolean held() {
        return held;
    }

    /**
     * Ends a resync: the log node holds every record through {@code through}; held records are sent now.
     *
     * @param through the last LSN copied to it
     */
    void release(long through) {
        Sent sent;
        synchronized (this) {
            ackedLsn = Math.max(ackedLsn, through);
            failedThrough = 0;
            held = false;
            up = true;
            sent = sendIfPossible();
        }
        attach(sent);
    }

    /** Gives up a resync: the log node stays down and nothing held is sent. */
    synchronized void abandon() {
        held = false;
        queue.clear();
    }

    /** Marks the channel usable again; the next record is sent to the log node. */
    void retry() {
        up = true;
    }

    boolean up() {
        return up;
    }

    long ackedLsn() {
        return ackedLsn;
    }

    /**
     * Tells whether this log node may still acknowledge a record.
     *
     * @param lsn the record's LSN
     * @return false if it already acknowledged it or the record was dropped with a failed batch
     */
    boolean mayStillAck(long lsn) {
        return up && lsn > ackedLsn && lsn > failedThrough;
    }

    String logNode() {
        return logNode;
    }

    String lastFailure() {
        return lastFailure;
    }

    synchronized long batches() {
        return batches;
    }
}
