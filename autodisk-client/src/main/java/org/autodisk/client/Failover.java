package org.autodisk.client;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.Status;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the client connected to one seed. When the current connection is down, the next request connects to
 * the next seed in round-robin order, trying each seed once; concurrent requests share that attempt.
 */
final class Failover {

    private static final Logger LOG = LoggerFactory.getLogger(Failover.class);

    private final List<Seed> seeds;
    private final Connector connector;

    /** The connection in use; guarded by {@code this}. */
    private Connection current;

    /** The seed index of the connection in use or last used; the next attempt starts after it. */
    private int index = -1;

    /** The connection attempt under way, shared by concurrent requests; guarded by {@code this}. */
    private CompletableFuture<Connection> connecting;

    private boolean closed;

    /** A successful attempt: which seed and its connection. */
    private record Connected(int seedIndex, Connection connection) {
    }

    Failover(List<Seed> seeds, Connector connector) {
        this.seeds = List.copyOf(seeds);
        this.connector = connector;
    }

    /**
     * Returns a live connection, connecting to the next seed if the current one is down.
     *
     * @return the connection; fails with {@link NodeUnavailableException} listing every seed tried, or with
     *         {@link ProtocolVersionException} if no seed could be used and one speaks another version
     */
    CompletableFuture<Connection> acquire() {
        CompletableFuture<Connection> result = new CompletableFuture<>();
        int start;
        synchronized (this) {
            if (closed) {
                return CompletableFuture.failedFuture(closedException());
            }
            if (current != null && current.isActive()) {
                return CompletableFuture.completedFuture(current);
            }
            if (connecting != null) {
                return connecting;
            }
            if (current != null) {
                LOG.warn("connection to {} is down; connecting to the next seed", current);
            }
            connecting = result;
            start = index + 1;
        }
        tryFrom(start, 0, new ArrayList<>(), new ArrayList<>()).whenComplete((ok, error) -> finish(result, ok, error));
        return result;
    }

    private CompletableFuture<Connected> tryFrom(int start, int attempt, List<String> tried, List<Throwable> causes) {
        if (attempt == seeds.size()) {
            return CompletableFuture.failedFuture(allFailed(tried, causes));
        }
        int i = (start + attempt) % seeds.size();
        Seed seed = seeds.get(i);
        return connector.open(seed)
                .thenApply(c -> new Connected(i, c))
                .exceptionallyCompose(error -> {
                    Throwable cause = Errors.unwrap(error);
                    LOG.info("cannot use seed {}: {}", seed, Errors.describe(cause));
                    tried.add(seed + " (" + Errors.describe(cause) + ")");
                    causes.add(cause);
                    return tryFrom(start, attempt + 1, tried, causes);
                });
    }

    private static AutoDiskException allFailed(List<String> tried, List<Throwable> causes) {
        String list = String.join(", ", tried);
        AutoDiskException e = null;
        for (Throwable cause : causes) {
            if (cause instanceof ProtocolVersionException version) {
                e = new ProtocolVersionException("no seed speaks protocol version " + Frame.PROTOCOL_VERSION
                        + "; tried " + list, Status.UNSUPPORTED_VERSION, version.nodeId(), version);
                break;
            }
        }
        if (e == null) {
            e = new NodeUnavailableException("no seed reachable; tried " + list, null, null, causes.get(0));
        }
        for (Throwable cause : causes) {
            if (cause != e.getCause()) {
                e.addSuppressed(cause);
            }
        }
        return e;
    }

    private void finish(CompletableFuture<Connection> result, Connected ok, Throwable error) {
        boolean keep;
        synchronized (this) {
            connecting = null;
            keep = ok != null && !closed;
            if (keep) {
                current = ok.connection();
                index = ok.seedIndex();
            }
        }
        if (ok == null) {
            result.completeExceptionally(Errors.unwrap(error));
        } else if (!keep) {
            ok.connection().close();
            result.completeExceptionally(closedException());
        } else {
            LOG.info("connected to node {} at {}", ok.connection().nodeId(), ok.connection().seed());
            result.complete(ok.connection());
        }
    }

    /**
     * Returns the connection in use or last used.
     *
     * @return the connection, or {@code null} if none was made yet
     */
    synchronized Connection current() {
        return current;
    }

    /**
     * Returns how many seeds there are.
     *
     * @return the seed count
     */
    int seedCount() {
        return seeds.size();
    }

    /** Closes the connection in use; later requests fail. */
    void close() {
        Connection c;
        synchronized (this) {
            closed = true;
            c = current;
        }
        if (c != null) {
            c.close();
        }
    }

    private static NodeUnavailableException closedException() {
        return new NodeUnavailableException("the client is closed", null, null);
    }
}
