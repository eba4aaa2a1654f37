package org.autodisk.client;

import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.autodisk.core.cluster.ClusterStatus;
import org.autodisk.core.cluster.RulesReload;

/**
 * The asynchronous view of an {@link AutoDiskClient}: the same operations, returning futures. A future fails
 * with an {@link AutoDiskException} subclass; a request that breaks a limit fails at once without being sent.
 * Futures complete on the client's I/O thread: do not block in their callbacks (use {@code *Async} stages
 * with an executor for slow work).
 */
public interface AsyncAutoDiskClient {

    /**
     * Creates or replaces a stream.
     *
     * @param key   the key, 1..1024 bytes (or the configured limit)
     * @param value the value, up to the configured limit
     * @return completes when the owner node has stored the stream
     */
    CompletableFuture<Void> insert(byte[] key, byte[] value);

    /**
     * Creates or replaces a stream with a UTF-8 key.
     *
     * @param key   the key text
     * @param value the value
     * @return completes when the owner node has stored the stream
     */
    default CompletableFuture<Void> insert(String key, byte[] value) {
        return insert(key.getBytes(StandardCharsets.UTF_8), value);
    }

    /**
     * Creates or replaces a stream with a UTF-8 key and value.
     *
     * @param key   the key text
     * @param value the value text
     * @return completes when the owner node has stored the stream
     */
    default CompletableFuture<Void> insert(String key, String value) {
        return insert(key.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Reads a stream.
     *
     * @param key the key
     * @return the value, or empty if there is no stream with this key
     */
    CompletableFuture<Optional<byte[]>> search(byte[] key);

    /**
     * Reads a stream with a UTF-8 key.
     *
     * @param key the key text
     * @return the value, or empty if there is no stream with this key
     */
    default CompletableFuture<Optional<byte[]>> search(String key) {
        return search(key.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Deletes a stream. Not retried after a lost connection, since a second attempt would report "did not
     * exist".
     *
     * @param key the key
     * @return true if the stream existed
     */
    CompletableFuture<Boolean> delete(byte[] key);

    /**
     * Deletes a stream with a UTF-8 key.
     *
     * @param key the key text
     * @return true if the stream existed
     */
    default CompletableFuture<Boolean> delete(String key) {
        return delete(key.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Reads streams in unsigned key order, across node boundaries, following the nodes' page cuts.
     *
     * @param from        first key (inclusive); empty for the start of the key space
     * @param toExclusive end key (exclusive), or {@code null} for the end of the key space; must sort after
     *                    {@code from}
     * @param limit       at most this many streams, 1 or more
     * @return the streams in key order
     */
    CompletableFuture<List<StreamEntry>> traverse(byte[] from, byte[] toExclusive, int limit);

    /**
     * Reads streams in key order with UTF-8 bounds.
     *
     * @param from        first key text (inclusive); empty or {@code null} for the start of the key space
     * @param toExclusive end key text (exclusive), or {@code null} for the end of the key space
     * @param limit       at most this many streams, 1 or more
     * @return the streams in key order
     */
    default CompletableFuture<List<StreamEntry>> traverse(String from, String toExclusive, int limit) {
        return traverse(from == null ? new byte[0] : from.getBytes(StandardCharsets.UTF_8),
                toExclusive == null ? null : toExclusive.getBytes(StandardCharsets.UTF_8), limit);
    }

    /**
     * Inserts many streams, sending all requests at once without waiting between them. Every entry is checked
     * against the limits first; if one breaks them, nothing is sent.
     *
     * @param entries the streams to insert
     * @return completes when all were stored; fails with {@link BatchInsertException} listing the failed keys
     *         if some were not
     */
    CompletableFuture<Void> insertBatch(Collection<StreamEntry> entries);

    /**
     * Reads the cluster map from the connected node.
     *
     * @return nodes, ranges, owners and counts
     */
    CompletableFuture<ClusterStatus> status();

    /**
     * Reloads the rules of every node from its rules directory, all or none: the connected node has every node
     * compile its rules first and switches them only when all compiled.
     *
     * @return what each node said and whether the new rules are in force
     */
    CompletableFuture<RulesReload> reloadRules();

    /**
     * Creates or replaces a stream and reports what each node did for it.
     *
     * @param key   the key
     * @param value the value
     * @return no value, the hops (owner first, entry node last) and the round trip time
     */
    CompletableFuture<Traced<Void>> insertTraced(byte[] key, byte[] value);

    /**
     * Reads a stream and reports what each node did for it.
     *
     * @param key the key
     * @return the value or empty, the hops (owner first, entry node last) and the round trip time
     */
    CompletableFuture<Traced<Optional<byte[]>>> searchTraced(byte[] key);
}
