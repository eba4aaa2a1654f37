package org.autodisk.bench.faults;

import java.time.Duration;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.client.AutoDiskException;
import org.autodisk.core.protocol.Status;

/**
 * Client workers: each inserts unique values into, deletes and reads single keys of a small key space, one request at
 * a time through its own client (seeded with every data node, its own first), and records every operation with when
 * it was invoked and returned and how it ended.
 */
final class Workers implements AutoCloseable {

    /** Statuses of a write the cluster refused before it took effect. */
    private static final List<Status> REFUSED = List.of(Status.NODE_UNAVAILABLE, Status.SHUTTING_DOWN,
            Status.OVERLOADED, Status.HOP_LIMIT_EXCEEDED, Status.STALE_MAP, Status.INVALID_ARGUMENT,
            Status.WRONG_ROLE, Status.REFUSED);

    private final List<String> seeds;
    private final int keys;
    private final long seed;
    private final Supplier<String> fault;
    private final LongSupplier clock;
    private final History history;
    private final Duration requestTimeout;
    private final AtomicBoolean stop = new AtomicBoolean();
    private final List<Thread> threads = new ArrayList<>();

    Workers(List<String> seeds, int keys, long seed, Supplier<String> fault, LongSupplier clock, History history,
            Duration requestTimeout) {
        this.seeds = List.copyOf(seeds);
        this.keys = keys;
        this.seed = seed;
        this.fault = fault;
        this.clock = clock;
        this.history = history;
        this.requestTimeout = requestTimeout;
    }

    /** The key of index {@code i}: spread over the key space by its first byte, so every range holds some. */
    static byte[] key(int i, int keys) {
        return new byte[] {(byte) (i * 256 / keys), 'f', (byte) i};
    }

    void start(int count) {
        for (int w = 0; w < count; w++) {
            int worker = w;
            threads.add(Thread.ofPlatform().name("fault-worker-" + w).start(() -> run(worker)));
        }
    }

    private void run(int worker) {
        List<String> mine = new ArrayList<>(seeds);
        Collections.rotate(mine, -worker);
        Random random = new Random(seed * 31 + worker);
        try (AutoDiskClient client = AutoDiskClient.builder().seeds(mine).requestTimeout(requestTimeout).build()) {
            for (long n = 0; !stop.get(); n++) {
                int key = random.nextInt(keys);
                int dice = random.nextInt(10);
                Op.Kind kind = dice < 5 ? Op.Kind.WRITE : dice < 6 ? Op.Kind.DELETE : Op.Kind.READ;
                history.add(once(client, worker, kind, key, kind == Op.Kind.WRITE ? "w" + worker + "-" + n : null));
            }
        }
    }

    /**
     * Runs one operation and records how it ended.
     *
     * @param client the client
     * @param worker the worker
     * @param kind   what to do
     * @param key    the key's index
     * @param value  the value to write (a write), else {@code null}
     * @return the operation
     */
    Op once(AutoDiskClient client, int worker, Op.Kind kind, int key, String value) {
        String during = fault.get();
        long invoke = clock.getAsLong();
        byte[] k = key(key, keys);
        try {
            String read = null;
            switch (kind) {
                case WRITE -> client.insert(k, value.getBytes(StandardCharsets.UTF_8));
                case DELETE -> client.delete(k);
                default -> read = client.search(k).map(String::new).orElse(null);
            }
            return new Op(worker, kind, key, kind == Op.Kind.READ ? read : value, invoke, clock.getAsLong(),
                    Op.Outcome.OK, during);
        } catch (AutoDiskException e) {
            boolean refused = kind == Op.Kind.READ || e.status() != null && REFUSED.contains(e.status());
            return new Op(worker, kind, key, kind == Op.Kind.READ ? null : value, invoke, clock.getAsLong(),
                    refused ? Op.Outcome.FAIL : Op.Outcome.INFO, during);
        }
    }

    /**
     * Reads every key once through a client seeded with one node.
     *
     * @param seed the node
     * @return the reads
     */
    List<Op> readAll(String seed) {
        List<Op> out = new ArrayList<>();
        try (AutoDiskClient client = AutoDiskClient.builder().seeds(seed).requestTimeout(requestTimeout).build()) {
            for (int k = 0; k < keys; k++) {
                out.add(once(client, -1, Op.Kind.READ, k, null));
            }
        }
        return out;
    }

    @Override
    public void close() {
        stop.set(true);
        threads.forEach(t -> {
            try {
                t.join(requestTimeout.toMillis() * 3);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }
}
