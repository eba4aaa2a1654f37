package org.autodisk.node.shipping;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.LogBatch;
import org.autodisk.core.protocol.LogRecord;
import org.autodisk.core.protocol.Opcode;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.peer.PeerChannel;

/**
 * The records on their way to one log node: one LOG_APPEND in flight at a time, carrying every record queued
 * while the previous one was out (protocol-level group commit), so records reach the log node in LSN order.
 */
final class ShipChannel {

    private final String stream;
    private final String logNode;
    private final PeerChannel peers;
    private final int maxBatch;
    private final LogShipping owner;
    private final ArrayDeque<LogRecord> queue = new ArrayDeque<>();
    private boolean inFlight;
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
        List<LogRecord> batch;
        synchronized (this) {
            queue.add(record);
            batch = inFlight || held ? null : takeBatch();
        }
        if (batch != null) {
            send(batch);
        }
    }

    private List<LogRecord> takeBatch() {
        List<LogRecord> batch = new ArrayList<>(Math.min(queue.size(), maxBatch));
        while (!queue.isEmpty() && batch.size() < maxBatch) {
            batch.add(queue.poll());
        }
        inFlight = true;
        batches++;
        return batch;
    }

    private void send(List<LogRecord> batch) {
        Frame frame = Frame.request(Opcode.LOG_APPEND, 0, new LogBatch(stream, batch, owner.appliedLsn()).encode());
        peers.send(logNode, frame).whenComplete((resp, err) -> done(batch, resp, err));
    }

    private void done(List<LogRecord> batch, Frame resp, Throwable err) {
        String failure = err != null ? String.valueOf(err.getCause() != null ? err.getCause().getMessage()
                : err.getMessage()) : Responses.status(resp.body()) != Status.OK
                ? Responses.errorMessage(resp.body()) : null;
        List<LogRecord> next;
        synchronized (this) {
            if (failure == null) {
                ackedLsn = Math.max(ackedLsn, Responses.parseLsn(resp.body()));
                up = true;
            } else {
                lastFailure = failure;
                up = false;
                long last = batch.get(batch.size() - 1).lsn();
                failedThrough = Math.max(failedThrough, queue.isEmpty() ? last : queue.peekLast().lsn());
                queue.clear();
            }
            inFlight = false;
            next = queue.isEmpty() ? null : takeBatch();
        }
        if (next != null) {
            send(next);
        }
        owner.progress();
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
        List<LogRecord> batch;
        synchronized (this) {
            ackedLsn = Math.max(ackedLsn, through);
            failedThrough = 0;
            held = false;
            up = true;
            batch = inFlight || queue.isEmpty() ? null : takeBatch();
        }
        if (batch != null) {
            send(batch);
        }
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
