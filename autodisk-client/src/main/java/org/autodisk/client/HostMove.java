package org.autodisk.client;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.autodisk.core.cluster.MigrationCommand;
import org.autodisk.core.cluster.MigrationStatus;
import org.autodisk.core.cluster.RangeStatus;
import org.autodisk.core.cluster.RangesReport;
import org.autodisk.core.protocol.KeyValue;
import org.autodisk.core.protocol.MigrationWriteRequest;
import org.autodisk.core.protocol.Opcode;

/**
 * The host-driven baseline (the paper's conventional disks): the client moves a range itself. It starts a
 * host-driven migration, waits until the target took the range's ledger positions, reads the range page by page
 * with TRAVERSE through any node and writes each page straight to the target (MIGRATION_WRITE; the next page is
 * read while one is written), says it is done, and waits while the target catches up from the ledgers and cuts
 * over as in any migration.
 */
final class HostMove {

    /** Streams per traverse page and per write. */
    static final int PAGE = 1000;
    /** Bytes of streams per MIGRATION_WRITE: a frame holds one stream of the largest size and a little more. */
    static final long WRITE_BYTES = 2L << 20;
    private static final long POLL_MS = 5;

    private final AutoDiskClient client;
    private final DefaultAsyncClient async;

    HostMove(AutoDiskClient client, DefaultAsyncClient async) {
        this.client = client;
        this.async = async;
    }

    HostMoveResult run(int rangeId, String target) throws InterruptedException {
        RangesReport map = client.await(async.ranges());
        RangeStatus range = map.ranges().stream().filter(r -> r.id() == rangeId).findFirst()
                .orElseThrow(() -> Errors.invalid("there is no range " + rangeId));
        String address = map.addresses().get(target);
        if (address == null) {
            throw Errors.invalid("there is no node " + target);
        }
        long t0 = System.nanoTime();
        MigrationStatus started = client.await(async.migrate(MigrationCommand.startByHost(rangeId, target)));
        Connection to = client.await(client.connector().open(client.connector().member(address)));
        long[] copied;
        try {
            awaitReady(to, started.id());
            copied = copy(to, started.id(), range);
        } catch (RuntimeException | InterruptedException e) {
            abort(started.id(), e);
            throw e;
        } finally {
            to.close();
        }
        long copyNanos = System.nanoTime() - t0;
        awaitEnd(started.id());
        return new HostMoveResult(started.id(), copied[0], copied[1], copyNanos, System.nanoTime() - t0);
    }

    private void awaitReady(Connection to, long id) throws InterruptedException {
        long deadline = System.nanoTime() + client.requestTimeout().toNanos();
        while (true) {
            try {
                client.await(write(to, id, List.of(), false));
                return;
            } catch (NodeUnavailableException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                TimeUnit.MILLISECONDS.sleep(POLL_MS);
            }
        }
    }

    private long[] copy(Connection to, long id, RangeStatus range) {
        long streams = 0;
        long bytes = 0;
        CompletableFuture<?> writing = CompletableFuture.completedFuture(null);
        byte[] from = range.low();
        while (true) {
            List<StreamEntry> page = client.await(async.traverse(from, range.high(), PAGE));
            client.await(writing);
            List<KeyValue> streamsOfPage = new ArrayList<>(page.size());
            for (StreamEntry e : page) {
                streamsOfPage.add(new KeyValue(e.key(), e.value()));
                bytes += e.key().length + e.value().length;
            }
            streams += page.size();
            boolean last = page.size() < PAGE;
            List<List<KeyValue>> writes = bounded(streamsOfPage);
            for (int i = 0; i < writes.size(); i++) {
                List<KeyValue> part = writes.get(i);
                boolean end = last && i == writes.size() - 1;
                writing = writing.thenCompose(x -> write(to, id, part, end));
            }
            if (last) {
                client.await(writing);
                return new long[] {streams, bytes};
            }
            byte[] lastKey = page.get(page.size() - 1).key();
            from = Arrays.copyOf(lastKey, lastKey.length + 1);
        }
    }

    /**
     * Splits a page into writes of at most {@link #WRITE_BYTES} (a larger stream alone), so that each fits a frame
     * whatever the streams' size; an empty page is one empty write.
     */
    static List<List<KeyValue>> bounded(List<KeyValue> page) {
        List<List<KeyValue>> out = new ArrayList<>();
        List<KeyValue> current = new ArrayList<>();
        long bytes = 0;
        for (KeyValue kv : page) {
            long size = kv.key().length + kv.value().length;
            if (!current.isEmpty() && bytes + size > WRITE_BYTES) {
                out.add(current);
                current = new ArrayList<>();
                bytes = 0;
            }
            current.add(kv);
            bytes += size;
        }
        out.add(current);
        return out;
    }

    private CompletableFuture<Reply> write(Connection to, long id, List<KeyValue> streams, boolean last) {
        return to.request(Opcode.MIGRATION_WRITE, new MigrationWriteRequest(id, last, streams).encode(), false,
                client.requestTimeout());
    }

    /** Aborts the migration of a copy that failed, so that the range does not wait for the host forever. */
    private void abort(long id, Exception cause) {
        try {
            client.await(async.migrate(MigrationCommand.control("abort", id)));
        } catch (RuntimeException e) {
            cause.addSuppressed(e);
        }
    }

    private void awaitEnd(long id) throws InterruptedException {
        while (client.await(async.migrations()).migrations().stream().anyMatch(m -> m.id() == id)) {
            TimeUnit.MILLISECONDS.sleep(POLL_MS);
        }
    }
}
