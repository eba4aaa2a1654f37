package org.autodisk.client;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.autodisk.core.cluster.RangesReport;
import org.autodisk.core.protocol.Opcode;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Direct routing (token-aware drivers and TiKV's client are the model): keyed requests go straight to the owner
 * by the client's {@link RouteTable}, stamped with the range, epoch and metadata version they were routed by, over
 * one connection per owner. A request the owner refuses as routed by a stale map (STALE_MAP), or whose owner cannot
 * be reached, goes through the connected node instead, which forwards it; the table is then refreshed, once for
 * all requests that found it stale. Until the first table arrives every request goes through the connected node.
 */
final class DirectRoutes implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DirectRoutes.class);
    private static final long UNREACHABLE_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** The RANGES body that asks for the map only, without measuring the ranges. */
    private static final byte[] MAP_ONLY = {0};

    private final Connector connector;
    private final Dispatcher viaSeed;
    private final Duration timeout;
    private final Map<String, CompletableFuture<Connection>> connections = new ConcurrentHashMap<>();
    private final Map<String, Long> unreachableSince = new ConcurrentHashMap<>();
    private final AtomicReference<CompletableFuture<RouteTable>> refreshing = new AtomicReference<>();
    private volatile RouteTable table;
    private volatile boolean closed;

    DirectRoutes(Connector connector, Dispatcher viaSeed, Duration timeout) {
        this.connector = connector;
        this.viaSeed = viaSeed;
        this.timeout = timeout;
    }

    /**
     * Sends a keyed request to its owner.
     *
     * @param op         the operation
     * @param body       the encoded body
     * @param key        the key
     * @param traced     whether to ask for a trace
     * @param idempotent whether it may be sent again after its connection dropped before the answer
     * @return the successful reply; fails as {@link Dispatcher#call} does
     */
    CompletableFuture<Reply> call(Opcode op, byte[] body, byte[] key, boolean traced, boolean idempotent) {
        RouteTable t = table;
        if (t == null) {
            refresh();
            return viaSeed.call(op, body, traced, idempotent);
        }
        RouteTable.Route route = t.locate(key);
        CompletableFuture<Connection> owner = connection(route.owner(), t);
        if (owner == null) {
            return viaSeed.call(op, body, traced, idempotent);
        }
        CompletableFuture<Reply> out = new CompletableFuture<>();
        owner.thenCompose(c -> c.request(op, body, traced, timeout, t.stamp(route))).whenComplete((reply, error) -> {
            if (error == null) {
                out.complete(reply);
            } else if (viaSeedInstead(Errors.unwrap(error), route.owner(), owner, idempotent)) {
                viaSeed.call(op, body, traced, idempotent).whenComplete((r, e) -> complete(out, r, e));
            } else {
                Throwable cause = Errors.unwrap(error);
                out.completeExceptionally(cause instanceof ConnectionLost lost ? lost.toPublic() : cause);
            }
        });
        return out;
    }

    private static void complete(CompletableFuture<Reply> out, Reply reply, Throwable error) {
        if (error == null) {
            out.complete(reply);
        } else {
            out.completeExceptionally(Errors.unwrap(error));
        }
    }

    /**
     * Tells whether a failed direct request goes through the connected node instead: after STALE_MAP, and when the
     * owner could not be reached or its connection dropped (a written request only if idempotent). The table is
     * refreshed in each of these cases: the owner may have moved or failed.
     */
    private boolean viaSeedInstead(Throwable cause, String owner, CompletableFuture<Connection> used,
            boolean idempotent) {
        if (cause instanceof AutoDiskException e && e.status() == Status.STALE_MAP) {
            refresh();
            return true;
        }
        boolean lost = cause instanceof ConnectionLost;
        if (lost || cause instanceof NodeUnavailableException e && e.status() == null) {
            drop(owner, used);
            unreachableSince.put(owner, System.nanoTime());
            refresh();
            return !lost || !((ConnectionLost) cause).written() || idempotent;
        }
        return false;
    }

    private void drop(String owner, CompletableFuture<Connection> used) {
        if (connections.remove(owner, used)) {
            used.thenAccept(Connection::close);
        }
    }

    private CompletableFuture<Connection> connection(String owner, RouteTable t) {
        Long since = unreachableSince.get(owner);
        if (closed || since != null && System.nanoTime() - since < UNREACHABLE_NANOS || t.address(owner) == null) {
            return null;
        }
        CompletableFuture<Connection> c = connections.computeIfAbsent(owner, o -> connector.open(t.address(o)));
        if (c.isDone() && (c.isCompletedExceptionally() || !c.join().isActive())) {
            drop(owner, c);
            c = connections.computeIfAbsent(owner, o -> connector.open(t.address(o)));
        }
        return c;
    }

    /**
     * Loads the range table again through the connected node; concurrent callers share one load.
     *
     * @return the new table
     */
    CompletableFuture<RouteTable> refresh() {
        CompletableFuture<RouteTable> mine = new CompletableFuture<>();
        CompletableFuture<RouteTable> running = refreshing.compareAndExchange(null, mine);
        if (running != null) {
            return running;
        }
        viaSeed.call(Opcode.RANGES, MAP_ONLY, false, true)
                .thenApply(r -> RouteTable.of(RangesReport.fromJson(Responses.parseBytes(r.body())), connector::member))
                .whenComplete((t, error) -> loaded(mine, t, error));
        return mine;
    }

    private void loaded(CompletableFuture<RouteTable> mine, RouteTable t, Throwable error) {
        if (error == null) {
            install(t);
            LOG.debug("direct routing table at metadata v{}", t.version());
            mine.complete(t);
        } else {
            LOG.info("could not load the range table for direct routing ({}); requests go through the connected "
                    + "node", Errors.describe(Errors.unwrap(error)));
            mine.completeExceptionally(error);
        }
        refreshing.set(null);
    }

    private synchronized void install(RouteTable t) {
        RouteTable now = table;
        if (now == null || t.version() >= now.version()) {
            table = t;
        }
    }

    /**
     * Returns the table in use.
     *
     * @return the table, or {@code null} before the first load
     */
    RouteTable table() {
        return table;
    }

    @Override
    public void close() {
        closed = true;
        connections.values().forEach(f -> f.thenAccept(Connection::close));
        connections.clear();
    }
}
