package org.autodisk.client;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.Status;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the client connected to one seed. When the current connection is down, the next request connects to
 * the next seed in round-robin order, trying each seed once; concurrent requests share that attempt. A seed whose node
 * refused an operation for its role (a log node asked for a stream) is left, and tried only after every other seed.
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

    /** Seeds whose node refused an operation for its role: tried last; guarded by {@code this}. */
    private final Set<Integer> wrongRole = new HashSet<>();

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
        tryFrom(order(start), 0, new ArrayList<>(), new ArrayList<>())
                .whenComplete((ok, error) -> finish(result, ok, error));
        return result;
    }

    /** Seed indexes in round-robin order from {@code start}, those that refused an operation for their role last. */
    private synchronized List<Integer> order(int start) {
        List<Integer> first = new ArrayList<>();
        List<Integer> last = new ArrayList<>();
        for (int k = 0; k < seeds.size(); k++) {
            int i = (start + k) % seeds.size();
            (wrongRole.contains(i) ? last : first).add(i);
        }
        first.addAll(last);
        return first;
    }

    private CompletableFuture<Connected> tryFrom(List<Integer> order, int attempt, List<String> tried,
            List<Throwable> causes) {
        if (attempt == order.size()) {
            return CompletableFuture.failedFuture(allFailed(tried, causes));
        }
        int i = order.get(attempt);
        Seed seed = seeds.get(i);
        return connector.open(seed)
                .thenApply(c -> new Connected(i, c))
                .exceptionallyCompose(error -> {
                    Throwable cause = Errors.unwrap(error);
                    LOG.info("cannot use seed {}: {}", seed, Errors.describe(cause));
                    tried.add(seed + " (" + Errors.describe(cause) + ")");
                    causes.add(cause);
                    return tryFrom(order, attempt + 1, tried, causes);
                });
    }

    /**
     * Leaves a connection whose node refused an operation for its role (a log node asked for a stream): the next
     * request connects to another seed, this one is tried only after every other, and the connection closes once the
     * requests already on it have had their time.
     *
     * @param c       the connection that answered WRONG_ROLE
     * @param linger  how long its requests in flight may still take
     * @return whether another seed may serve the operation (there is more than one seed)
     */
    boolean leaveForRole(Connection c, Duration linger) {
        synchronized (this) {
            if (seeds.size() < 2) {
                return false;
            }
            if (current == c) {
                wrongRole.add(index);
                current = null;
                LOG.info("node {} at {} does not serve every operation for its role; using another seed",
                        c.nodeId(), c.seed());
                closeLater(c, linger);
            }
        }
        return true;
    }

    /**
     * Moves on from a connection whose node could not serve a request for now (NODE_UNAVAILABLE: it reaches no owner,
     * say): the next request connects to the next seed, and the connection closes once the requests already on it
     * have had their time.
     *
     * @param c      the connection
     * @param linger how long its requests in flight may still take
     */
    void moveOn(Connection c, Duration linger) {
        synchronized (this) {
            if (seeds.size() < 2 || current != c) {
                return;
            }
            current = null;
            LOG.info("node {} at {} could not serve a request; trying the next seed", c.nodeId(), c.seed());
        }
        closeLater(c, linger);
    }

    /**
     * Runs a task on the client's I/O thread after a delay.
     *
     * @param task   what to run; it must not block
     * @param millis the delay
     * @return whether it was scheduled ({@code false} once the client is closing)
     */
    boolean later(Runnable task, long millis) {
        return connector.later(task, millis);
    }

    /** Closes a connection left for another once the requests on it have had their time (at once if closing). */
    private void closeLater(Connection c, Duration linger) {
        if (!connector.later(c::close, linger.toMillis() + 1000)) {
            c.close();
        }
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
