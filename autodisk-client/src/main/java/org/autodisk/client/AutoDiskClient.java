package org.autodisk.client;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.autodisk.core.Limits;
import org.autodisk.core.net.Tls;
import org.autodisk.core.cluster.ClusterStatus;
import org.autodisk.core.cluster.RulesReload;

/**
 * A connection to an AutoDisk cluster. Connects to one seed node, which routes each request to the owner of
 * the key; if that node goes away, the client moves on to the next seed. Thread-safe: share one instance.
 *
 * <p>Blocking methods throw the {@link AutoDiskException} subclass that matches the failure; {@link #async()}
 * offers the same operations returning futures. A request that breaks a key or value limit is rejected with
 * {@link InvalidRequestException} before anything is sent.
 *
 * <pre>{@code
 * try (AutoDiskClient client = AutoDiskClient.builder().seeds("node-a:7400", "node-b:7400").build()) {
 *     client.insert("greeting", "hello");
 *     Optional<byte[]> value = client.search("greeting");
 * }
 * }</pre>
 */
public final class AutoDiskClient implements AutoCloseable {

    private final Connector connector;
    private final Failover failover;
    private final DefaultAsyncClient async;
    private final AutoDiskAdmin admin;
    private final DirectRoutes direct;
    private final Duration requestTimeout;

    private AutoDiskClient(ClientSettings settings, Connector connector, Failover failover) {
        this.connector = connector;
        this.requestTimeout = settings.requestTimeout();
        this.failover = failover;
        Dispatcher dispatcher = new Dispatcher(failover, settings.requestTimeout());
        this.direct = settings.directRouting() ? new DirectRoutes(connector, dispatcher, settings.requestTimeout())
                : null;
        this.async = new DefaultAsyncClient(dispatcher, settings.limits(), direct);
        if (direct != null) {
            direct.refresh();
        }
        this.admin = new AutoDiskAdmin(this, async);
    }

    /**
     * Starts building a client.
     *
     * @return a builder with the default settings
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Returns the asynchronous view of this client; it shares the connection.
     *
     * @return the asynchronous client
     */
    public AsyncAutoDiskClient async() {
        return async;
    }

    /**
     * Creates or replaces a stream.
     *
     * @param key   the key, 1..1024 bytes (or the configured limit)
     * @param value the value, up to the configured limit
     */
    public void insert(byte[] key, byte[] value) {
        await(async.insert(key, value));
    }

    /**
     * Creates or replaces a stream with a UTF-8 key.
     *
     * @param key   the key text
     * @param value the value
     */
    public void insert(String key, byte[] value) {
        await(async.insert(key, value));
    }

    /**
     * Creates or replaces a stream with a UTF-8 key and value.
     *
     * @param key   the key text
     * @param value the value text
     */
    public void insert(String key, String value) {
        await(async.insert(key, value));
    }

    /**
     * Reads a stream.
     *
     * @param key the key
     * @return the value, or empty if there is no stream with this key
     */
    public Optional<byte[]> search(byte[] key) {
        return await(async.search(key));
    }

    /**
     * Reads a stream with a UTF-8 key.
     *
     * @param key the key text
     * @return the value, or empty if there is no stream with this key
     */
    public Optional<byte[]> search(String key) {
        return await(async.search(key));
    }

    /**
     * Deletes a stream.
     *
     * @param key the key
     * @return true if the stream existed
     */
    public boolean delete(byte[] key) {
        return await(async.delete(key));
    }

    /**
     * Deletes a stream with a UTF-8 key.
     *
     * @param key the key text
     * @return true if the stream existed
     */
    public boolean delete(String key) {
        return await(async.delete(key));
    }

    /**
     * Reads streams in unsigned key order, across node boundaries.
     *
     * @param from        first key (inclusive); empty for the start of the key space
     * @param toExclusive end key (exclusive), or {@code null} for the end of the key space
     * @param limit       at most this many streams, 1 or more
     * @return the streams in key order
     */
    public List<StreamEntry> traverse(byte[] from, byte[] toExclusive, int limit) {
        return await(async.traverse(from, toExclusive, limit));
    }

    /**
     * Reads streams in key order with UTF-8 bounds.
     *
     * @param from        first key text (inclusive); empty or {@code null} for the start of the key space
     * @param toExclusive end key text (exclusive), or {@code null} for the end of the key space
     * @param limit       at most this many streams, 1 or more
     * @return the streams in key order
     */
    public List<StreamEntry> traverse(String from, String toExclusive, int limit) {
        return await(async.traverse(from, toExclusive, limit));
    }

    /**
     * Reads a key range lazily: pages of 1000 streams are fetched as the stream is
     * consumed, so a short-circuiting stream reads only what it needs. Failures surface as the
     * {@link AutoDiskException} subclass from the terminal operation.
     *
     * @param from        first key (inclusive); empty or {@code null} for the start of the key space
     * @param toExclusive end key (exclusive), or {@code null} for the end of the key space
     * @return the streams in key order
     * @throws InvalidRequestException at once if the range is empty or a bound breaks the key limit
     */
    public Stream<StreamEntry> traverseStream(byte[] from, byte[] toExclusive) {
        byte[] start = from == null ? new byte[0] : from;
        String problem = Validation.range(async.limits(), start, toExclusive, 1);
        if (problem != null) {
            throw Errors.invalid(problem);
        }
        TraverseCursor cursor = new TraverseCursor((key, limit) -> traverse(key, toExclusive, limit), start);
        return StreamSupport.stream(cursor, false);
    }

    /**
     * Inserts many streams, sending all requests at once and waiting for all answers.
     *
     * @param entries the streams to insert; all are checked against the limits before any is sent
     * @throws BatchInsertException listing the failed keys and causes if some inserts failed
     */
    public void insertBatch(Collection<StreamEntry> entries) {
        await(async.insertBatch(entries));
    }

    /**
     * Reads the cluster map from the connected node.
     *
     * @return nodes, ranges, owners and counts
     */
    public ClusterStatus status() {
        return await(async.status());
    }

    /**
     * Returns the administrative view: ranges, members and splits. It shares this client's connection.
     *
     * @return the admin view
     */
    public AutoDiskAdmin admin() {
        return admin;
    }

    /**
     * Reloads the rules of every node from its rules directory, all or none.
     *
     * @return what each node said and whether the new rules are in force
     */
    public RulesReload reloadRules() {
        return await(async.reloadRules());
    }

    /**
     * Returns the id of the node this client is connected to, as the node gave it in the handshake.
     *
     * @return the node id of the current (or, while reconnecting, the last) connection
     */
    public String connectedNode() {
        Connection c = failover.current();
        return c == null ? null : c.nodeId();
    }

    /**
     * Returns the address of the node this client is connected to.
     *
     * @return {@code host:port} of the current (or, while reconnecting, the last) connection
     */
    public String connectedAddress() {
        Connection c = failover.current();
        return c == null ? null : c.seed().toString();
    }

    /** Closes the connection and stops the client's I/O thread; pending requests fail. */
    @Override
    public void close() {
        if (direct != null) {
            direct.close();
        }
        failover.close();
        connector.close();
    }

    /** @return what opens connections to single nodes (a host-driven move talks to its target) */
    Connector connector() {
        return connector;
    }

    /** @return how long one request may take */
    Duration requestTimeout() {
        return requestTimeout;
    }

    <T> T await(CompletableFuture<T> future) {
        if (!future.isDone() && connector.inEventLoop()) {
            throw new IllegalStateException("blocking AutoDiskClient call on the client's I/O thread (in a future "
                    + "callback?): use async() there");
        }
        try {
            return future.join();
        } catch (CompletionException e) {
            throw Errors.rethrowable(e);
        }
    }

    /** Collects the settings of a client; {@link #build()} connects. Not thread-safe. */
    public static final class Builder {

        private final List<Seed> seeds = new ArrayList<>();
        private Duration requestTimeout = Duration.ofSeconds(10);
        private Duration connectTimeout = Duration.ofSeconds(3);
        private Limits limits = Limits.DEFAULT;
        private String clientId = "client-" + UUID.randomUUID().toString().substring(0, 8);
        private boolean tls;
        private java.nio.file.Path trustStore;
        private char[] trustStorePassword;
        private boolean verifyHostname = true;
        private boolean directRouting;
        private UnaryOperator<String> addressTranslator;

        private Builder() {
        }

        /**
         * Sets the nodes to try, in order; replaces earlier seeds.
         *
         * @param hostPort addresses as {@code host:port} or {@code [ipv6]:port}
         * @return this builder
         * @throws IllegalArgumentException naming a seed that is not of that form
         */
        public Builder seeds(String... hostPort) {
            return seeds(List.of(hostPort));
        }

        /**
         * Sets the nodes to try, in order; replaces earlier seeds.
         *
         * @param hostPort addresses as {@code host:port} or {@code [ipv6]:port}
         * @return this builder
         * @throws IllegalArgumentException naming a seed that is not of that form
         */
        public Builder seeds(List<String> hostPort) {
            List<Seed> parsed = hostPort.stream().map(Seed::parse).toList();
            seeds.clear();
            seeds.addAll(parsed);
            return this;
        }

        /**
         * Sets how long to wait for each answer (default 10 s).
         *
         * @param timeout a positive duration
         * @return this builder
         */
        public Builder requestTimeout(Duration timeout) {
            this.requestTimeout = Validation.positive(timeout, "requestTimeout");
            return this;
        }

        /**
         * Sets how long to wait for a TCP connection and for the handshake answer (default 3 s).
         *
         * @param timeout a positive duration
         * @return this builder
         */
        public Builder connectTimeout(Duration timeout) {
            this.connectTimeout = Validation.positive(timeout, "connectTimeout");
            return this;
        }

        /**
         * Sets the limits checked before sending (default {@link Limits#DEFAULT}); match the nodes' settings.
         *
         * @param limits the key and value limits
         * @return this builder
         */
        public Builder limits(Limits limits) {
            this.limits = Objects.requireNonNull(limits, "limits");
            return this;
        }

        /**
         * Sets the name this client gives in the handshake (default {@code client-} and a random suffix).
         *
         * @param clientId a non-blank name
         * @return this builder
         */
        public Builder clientId(String clientId) {
            if (clientId == null || clientId.isBlank()) {
                throw new IllegalArgumentException("clientId must not be blank");
            }
            this.clientId = clientId;
            return this;
        }

        /**
         * Connects over TLS (the nodes' {@code tls.enabled}), trusting the certificates of a PKCS#12 trust store.
         *
         * @param trustStorePath the trust store, or {@code null} to trust what the JDK trusts by default
         * @param password       its password, or {@code null}
         * @return this builder
         */
        public Builder tls(java.nio.file.Path trustStorePath, String password) {
            this.tls = true;
            this.trustStore = trustStorePath;
            this.trustStorePassword = password == null ? null : password.toCharArray();
            return this;
        }

        /**
         * Sets whether a node's TLS certificate must name the host connected to (default true).
         * @param verify false only for certificates without the host's name or address
         * @return this builder
         */
        public Builder verifyHostname(boolean verify) {
            this.verifyHostname = verify;
            return this;
        }

        /**
         * Sends each insert, search and delete straight to the owner of its key (default false: to the connected
         * node, which forwards). The client learns the ranges with their epochs and the members' addresses from
         * the nodes, and keeps a connection to each owner; a request routed by an outdated table is refused by
         * the node it reached (STALE_MAP) and sent again through the connected node, and the table is refreshed,
         * so a stale table costs one forward, never a wrong answer. Members' addresses the client cannot reach (see
         * {@link #addressTranslator}): requests for their ranges go through the connected node.
         *
         * @param direct true to route directly
         * @return this builder
         */
        public Builder directRouting(boolean direct) {
            this.directRouting = direct;
            return this;
        }

        /**
         * Translates the members' addresses the cluster reports (its {@code cluster.nodes}, e.g. {@code d2:7400}
         * inside a Docker network) into addresses this client reaches (e.g. a published port on the host), for the
         * connections the client opens to a member it was not given as a seed: direct routing and the host-driven
         * move. Default: the reported address. Seeds are used as given.
         *
         * @param translator from a reported {@code host:port} to a reachable {@code host:port}
         * @return this builder
         */
        public Builder addressTranslator(UnaryOperator<String> translator) {
            this.addressTranslator = Objects.requireNonNull(translator, "translator");
            return this;
        }

        /**
         * Connects to the first seed that accepts the handshake.
         *
         * @return the connected client
         * @throws IllegalStateException     if no seeds were given
         * @throws NodeUnavailableException  listing every seed tried with its failure if none could be used
         * @throws ProtocolVersionException  if no seed could be used and one speaks another protocol version
         * @throws IllegalArgumentException  if the TLS trust store cannot be read
         */
        public AutoDiskClient build() {
            if (seeds.isEmpty()) {
                throw new IllegalStateException("no seeds: call seeds(\"host:port\", ...) before build()");
            }
            ClientSettings settings = new ClientSettings(seeds, requestTimeout, connectTimeout, limits, clientId,
                    tls ? Tls.client(trustStore, trustStorePassword, verifyHostname) : null, directRouting,
                    addressTranslator);
            Connector connector = new Connector(settings);
            Failover failover = new Failover(settings.seeds(), connector);
            try {
                failover.acquire().join();
            } catch (CompletionException e) {
                connector.close();
                throw Errors.rethrowable(e);
            }
            return new AutoDiskClient(settings, connector, failover);
        }
    }
}
