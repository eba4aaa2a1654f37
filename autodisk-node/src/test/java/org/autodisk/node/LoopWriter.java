package org.autodisk.node;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.autodisk.core.protocol.Status;

/**
 * A writer thread for tests: writes keys 0..n-1 over and over, each time at a higher version, until closed; keeps the
 * last version acknowledged of each key and every failure.
 */
public final class LoopWriter implements AutoCloseable {

    /** Writes one key at a version. */
    @FunctionalInterface
    public interface Write {

        /**
         * Writes.
         *
         * @param key     the key's number
         * @param version the version
         * @return the answer's status
         * @throws Exception if the write could not be sent or answered
         */
        Status write(int key, int version) throws Exception;
    }

    private final Map<Integer, Integer> acked = new ConcurrentHashMap<>();
    private final List<String> failures = new CopyOnWriteArrayList<>();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final Thread thread;

    /**
     * Starts writing.
     *
     * @param keys  how many keys
     * @param write how to write one
     */
    public LoopWriter(int keys, Write write) {
        this.thread = Thread.ofPlatform().name("loop-writer").start(() -> run(keys, write));
    }

    private void run(int keys, Write write) {
        for (int n = 1; !stop.get(); n++) {
            int i = n % keys;
            try {
                Status s = write.write(i, n);
                if (s == Status.OK) {
                    acked.put(i, n);
                } else {
                    failures.add(i + ": " + s);
                }
            } catch (Exception e) {
                failures.add(i + ": " + e);
            }
        }
    }

    /**
     * Returns the last version acknowledged of each key written so far.
     *
     * @return key number to version (live)
     */
    public Map<Integer, Integer> acked() {
        return acked;
    }

    /**
     * Returns the writes that failed, as "key: status or exception".
     *
     * @return the failures (live)
     */
    public List<String> failures() {
        return failures;
    }

    /** Stops writing and waits for the write under way. */
    @Override
    public void close() throws InterruptedException {
        stop.set(true);
        thread.join();
    }
}
