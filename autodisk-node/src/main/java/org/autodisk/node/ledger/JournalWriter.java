package org.autodisk.node.ledger;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The journal's single writer thread. Group commit: it takes every change queued so far (of all ledgers), writes
 * them (up to {@link #MAX_GROUP}) in one write, makes them durable with one fsync, hands them back to the store, and
 * goes back for whatever queued up meanwhile; it never waits for more to arrive. A new segment begins with the state
 * of every ledger.
 */
final class JournalWriter {

    private static final Logger LOG = LoggerFactory.getLogger(JournalWriter.class);
    /** At most this many changes per group commit, so that a backlog is written in bounded buffers. */
    static final int MAX_GROUP = 4096;

    /** What the writer reports back to the store. */
    interface Sink {

        /** The ledgers' truncation points and fences, for the STATE frame that opens a segment. */
        Map<Long, long[]> state();

        /** The group is durable. */
        void durable(List<JournalOp> group);

        /** The group could not be made durable: the journal takes nothing more. */
        void failed(List<JournalOp> group, IOException e);
    }

    private final String nodeId;
    private final JournalSegments segments;
    private final Sink sink;
    private final BlockingQueue<JournalOp> queue = new LinkedBlockingQueue<>();
    private final Thread thread;
    private ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20);
    private volatile long syncs;
    private volatile long entries;
    /** Writer thread: the first failure; nothing is written after it (a later group would leave a hole). */
    private IOException failure;

    JournalWriter(String nodeId, JournalSegments segments, Sink sink) {
        this.nodeId = nodeId;
        this.segments = segments;
        this.sink = sink;
        this.thread = Thread.ofPlatform().name(nodeId + "-journal").daemon(true).unstarted(this::run);
    }

    void start() {
        thread.start();
    }

    void submit(JournalOp op) {
        queue.add(op);
    }

    long syncs() {
        return syncs;
    }

    long entries() {
        return entries;
    }

    /** Lets the writer finish what is queued, then waits for it to stop. */
    void stopAndJoin() {
        queue.add(JournalOp.STOP);
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        List<JournalOp> group = new ArrayList<>();
        boolean stop = false;
        while (!stop) {
            group.add(take());
            queue.drainTo(group, MAX_GROUP - 1);
            stop = group.removeIf(op -> op == JournalOp.STOP);
            if (!group.isEmpty()) {
                commit(group);
            }
            group.clear();
        }
    }

    private JournalOp take() {
        while (true) {
            try {
                return queue.take();
            } catch (InterruptedException e) {
                LOG.warn("{}: journal writer interrupted; it stops only when the store is closed", nodeId);
            }
        }
    }

    private void commit(List<JournalOp> group) {
        if (failure != null) {
            sink.failed(group, failure);
            return;
        }
        try {
            int bytes = 0;
            for (JournalOp op : group) {
                bytes += op.bytes();
            }
            if (!segments.open() || segments.full(bytes)) {
                roll();
            }
            write(group, bytes);
            segments.force();
            syncs++;
        } catch (IOException | RuntimeException e) {
            failure = e instanceof IOException x ? x : new IOException(e);
            LOG.error("{}: the journal could not make {} changes durable; it takes no more writes", nodeId,
                    group.size(), e);
            cutUnsynced();
            sink.failed(group, failure);
            return;
        }
        sink.durable(group);
    }

    /**
     * Cuts the frames written since the last successful fsync before the group is answered as failed: the page cache
     * may still show them, and a restart of the process (no reopening in between) would take them for durable.
     */
    private void cutUnsynced() {
        try {
            segments.cutUnsynced();
        } catch (IOException | RuntimeException e) {
            LOG.warn("{}: the journal could not cut what its failed fsync left; it is cut when the journal opens "
                    + "again: {}", nodeId, e.toString());
        }
    }

    private void roll() throws IOException {
        segments.roll(segments.current());
        Map<Long, long[]> state = sink.state();
        ByteBuffer b = ByteBuffer.allocate(JournalFrame.stateSize(state.size()));
        JournalFrame.writeState(b, state);
        segments.write(b.flip());
    }

    private void write(List<JournalOp> group, int bytes) throws IOException {
        if (buffer.capacity() < bytes) {
            buffer = ByteBuffer.allocateDirect(Integer.highestOneBit(bytes) << 1);
        }
        buffer.clear();
        long base = segments.position();
        for (JournalOp op : group) {
            op.encode(buffer, segments.current(), base);
            entries += op.entries.size();
        }
        segments.write(buffer.flip());
    }
}
