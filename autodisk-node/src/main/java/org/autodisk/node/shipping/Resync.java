package org.autodisk.node.shipping;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.autodisk.core.protocol.Frame;
import org.autodisk.node.wire.LogBatch;
import org.autodisk.node.wire.LogReadRequest;
import org.autodisk.node.wire.LogRecord;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.peer.PeerChannel;
import org.autodisk.node.wire.PeerOp;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Restores multiplicity when a log node returns: copies the records it missed from a log node that has them,
 * then lets it join the live stream again. New records meanwhile are held back for it and sent afterwards.
 */
final class Resync {

    private static final Logger LOG = LoggerFactory.getLogger(Resync.class);
    private static final int PAGE = 5000;
    private static final long WAIT_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(30);

    private final String stream;
    private final PeerChannel peers;

    Resync(String stream, PeerChannel peers) {
        this.stream = stream;
        this.peers = peers;
    }

    /**
     * Copies records to a returning log node.
     *
     * @param target  the returning log node's channel (held)
     * @param source  a healthy log node's channel
     * @param through copy every record up to this LSN
     * @return true if the target now holds every record through {@code through}
     */
    boolean run(ShipChannel target, ShipChannel source, long through) {
        try {
            long deadline = System.nanoTime() + WAIT_LIMIT_NANOS;
            while (source.ackedLsn() < through && source.up() && System.nanoTime() < deadline) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
            long next = read(target.logNode(), 1, 0).lastLsn() + 1;
            long copied = 0;
            while (next <= through) {
                List<LogRecord> page = read(source.logNode(), next, PAGE).records().stream()
                        .filter(r -> r.lsn() <= through).toList();
                if (page.isEmpty()) {
                    break;
                }
                int from = 0;
                long bytes = 0;
                for (int i = 0; i < page.size(); i++) {
                    bytes += page.get(i).encodedSize();
                    if (bytes >= ShipChannel.MAX_BATCH_BYTES || i == page.size() - 1) {
                        append(target.logNode(), page.subList(from, i + 1));
                        from = i + 1;
                        bytes = 0;
                    }
                }
                copied += page.size();
                next = page.get(page.size() - 1).lsn() + 1;
            }
            LOG.info("{}: log node {} is back: copied {} records from {}; multiplicity restored", stream,
                    target.logNode(), copied, source.logNode());
            return true;
        } catch (RuntimeException e) {
            LOG.debug("{}: resync of log node {} failed: {}", stream, target.logNode(), e.getMessage());
            return false;
        }
    }

    private LogBatch read(String node, long from, int max) {
        Frame resp = peers.send(node, PeerOp.LOG_READ.request(new LogReadRequest(stream, from, max)
                .encode())).join();
        check(node, resp);
        return LogBatch.decode(resp.body(), 1);
    }

    private void append(String node, List<LogRecord> records) {
        check(node, peers.send(node, PeerOp.LOG_APPEND.request(new LogBatch(stream, records, 0)
                .encode())).join());
    }

    private static void check(String node, Frame resp) {
        if (Responses.status(resp.body()) != Status.OK) {
            throw new IllegalStateException(node + ": " + Responses.errorMessage(resp.body()));
        }
    }
}
