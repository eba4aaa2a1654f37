package org.autodisk.client;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.autodisk.core.Keys;
import org.autodisk.core.Limits;
import org.autodisk.core.cluster.ClusterStatus;
import org.autodisk.core.cluster.DirectoryReport;
import org.autodisk.core.cluster.MembersReport;
import org.autodisk.core.cluster.RangesReport;
import org.autodisk.core.cluster.BalanceReport;
import org.autodisk.core.cluster.RulesReload;
import org.autodisk.core.cluster.MigrationCommand;
import org.autodisk.core.cluster.MigrationStatus;
import org.autodisk.core.cluster.MigrationsReport;
import org.autodisk.core.cluster.SplitResult;
import org.autodisk.core.protocol.InsertRequest;
import org.autodisk.core.protocol.KeyRequest;
import org.autodisk.core.protocol.KeyValue;
import org.autodisk.core.protocol.Opcode;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.RulesReloadRequest;
import org.autodisk.core.protocol.TraverseRequest;
import org.autodisk.core.protocol.TraverseResult;

/** The asynchronous client: validates, encodes, sends through the {@link Dispatcher} and parses answers. */
final class DefaultAsyncClient implements AsyncAutoDiskClient {

    private static final byte[] EMPTY = new byte[0];

    private final Dispatcher dispatcher;
    private final Limits limits;
    private final DirectRoutes direct;

    DefaultAsyncClient(Dispatcher dispatcher, Limits limits, DirectRoutes direct) {
        this.dispatcher = dispatcher;
        this.limits = limits;
        this.direct = direct;
    }

    /** Sends a keyed request: straight to its owner with direct routing, else through the connected node. */
    private CompletableFuture<Reply> keyed(Opcode op, byte[] body, byte[] key, boolean traced, boolean idempotent) {
        return direct != null ? direct.call(op, body, key, traced, idempotent)
                : dispatcher.call(op, body, traced, idempotent);
    }

    /**
     * Returns the limits checked before sending.
     *
     * @return the limits
     */
    Limits limits() {
        return limits;
    }

    @Override
    public CompletableFuture<Void> insert(byte[] key, byte[] value) {
        String problem = Validation.entry(limits, key, value);
        if (problem != null) {
            return CompletableFuture.failedFuture(Errors.invalid(problem));
        }
        return external(sendInsert(key, value, false).thenApply(reply -> null));
    }

    @Override
    public CompletableFuture<Optional<byte[]>> search(byte[] key) {
        String problem = Validation.key(limits, key);
        if (problem != null) {
            return CompletableFuture.failedFuture(Errors.invalid(problem));
        }
        return external(sendSearch(key, false).thenApply(DefaultAsyncClient::searchResult));
    }

    @Override
    public CompletableFuture<Boolean> delete(byte[] key) {
        String problem = Validation.key(limits, key);
        if (problem != null) {
            return CompletableFuture.failedFuture(Errors.invalid(problem));
        }
        return external(keyed(Opcode.DELETE, new KeyRequest(key).encode(), key, false, false)
                .thenApply(reply -> reply.parse(Responses::parseDelete)));
    }

    @Override
    public CompletableFuture<List<StreamEntry>> traverse(byte[] from, byte[] toExclusive, int limit) {
        byte[] start = from == null ? EMPTY : from;
        String problem = Validation.range(limits, start, toExclusive, limit);
        if (problem != null) {
            return CompletableFuture.failedFuture(Errors.invalid(problem));
        }
        return external(collect(start, toExclusive, limit, new ArrayList<>()));
    }

    /** Requests pages until the limit is reached or the node sends no resume key. */
    private CompletableFuture<List<StreamEntry>> collect(byte[] from, byte[] to, int limit, List<StreamEntry> out) {
        byte[] body = new TraverseRequest(from, to, limit - out.size()).encode();
        return dispatcher.call(Opcode.TRAVERSE, body, false, true).thenCompose(reply -> {
            TraverseResult page = reply.parse(Responses::parseTraverse);
            for (KeyValue kv : page.entries()) {
                if (out.size() < limit) {
                    out.add(new StreamEntry(kv.key(), kv.value()));
                }
            }
            byte[] resume = page.resumeKey();
            if (resume == null || out.size() >= limit || to != null && Keys.compare(resume, to) >= 0) {
                return CompletableFuture.completedFuture(out);
            }
            if (Keys.compare(resume, from) <= 0) {
                return CompletableFuture.failedFuture(new AutoDiskException("node " + reply.nodeId()
                        + " cut a traverse page at " + Keys.render(resume) + ", which does not advance past "
                        + Keys.render(from), null, reply.nodeId()));
            }
            return collect(resume, to, limit, out);
        });
    }

    @Override
    public CompletableFuture<Void> insertBatch(Collection<StreamEntry> entries) {
        List<StreamEntry> batch = List.copyOf(entries);
        for (int i = 0; i < batch.size(); i++) {
            StreamEntry e = batch.get(i);
            String problem = Validation.entry(limits, e.key(), e.value());
            if (problem != null) {
                return CompletableFuture.failedFuture(Errors.invalid("batch entry " + i + " (key "
                        + (e.key() == null ? "null" : Keys.render(e.key())) + "): " + problem));
            }
        }
        List<CompletableFuture<Reply>> sent = new ArrayList<>(batch.size());
        for (StreamEntry e : batch) {
            sent.add(sendInsert(e.key(), e.value(), false));
        }
        return external(CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new))
                .handle((ignored, error) -> batchOutcome(batch, sent))
                .thenCompose(failure -> failure == null
                        ? CompletableFuture.<Void>completedFuture(null)
                        : CompletableFuture.<Void>failedFuture(failure)));
    }

    private static BatchInsertException batchOutcome(List<StreamEntry> batch, List<CompletableFuture<Reply>> sent) {
        List<BatchInsertException.Failure> failures = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            CompletableFuture<Reply> f = sent.get(i);
            if (f.isCompletedExceptionally()) {
                failures.add(new BatchInsertException.Failure(batch.get(i).key(), asAutoDisk(f)));
            }
        }
        return failures.isEmpty() ? null : new BatchInsertException(failures, batch.size());
    }

    private static AutoDiskException asAutoDisk(CompletableFuture<Reply> failed) {
        Throwable cause = Errors.unwrap(failed.exceptionNow());
        return cause instanceof AutoDiskException e ? e
                : new AutoDiskException(Errors.describe(cause), null, null, cause);
    }

    @Override
    public CompletableFuture<ClusterStatus> status() {
        return external(dispatcher.call(Opcode.STATUS, EMPTY, false, true)
                .thenApply(reply -> reply.parse(body -> ClusterStatus.fromJson(Responses.parseBytes(body)))));
    }

    @Override
    public CompletableFuture<RulesReload> reloadRules() {
        return external(dispatcher.call(Opcode.RULES_RELOAD, RulesReloadRequest.cluster().encode(), false, true)
                .thenApply(reply -> reply.parse(body -> RulesReload.fromJson(Responses.parseBytes(body)))));
    }

    CompletableFuture<RangesReport> ranges() {
        return external(dispatcher.call(Opcode.RANGES, EMPTY, false, true)
                .thenApply(reply -> reply.parse(body -> RangesReport.fromJson(Responses.parseBytes(body)))));
    }

    CompletableFuture<DirectoryReport> directory() {
        return external(dispatcher.call(Opcode.DIRECTORY, EMPTY, false, true)
                .thenApply(reply -> reply.parse(body -> DirectoryReport.fromJson(Responses.parseBytes(body)))));
    }

    CompletableFuture<MembersReport> members() {
        return external(dispatcher.call(Opcode.MEMBERS, EMPTY, false, true)
                .thenApply(reply -> reply.parse(body -> MembersReport.fromJson(Responses.parseBytes(body)))));
    }

    CompletableFuture<MigrationStatus> migrate(MigrationCommand command) {
        return external(dispatcher.call(Opcode.MIGRATE, command.toJson(), false, false)
                .thenApply(reply -> reply.parse(body -> MigrationStatus.fromJson(Responses.parseBytes(body)))));
    }

    CompletableFuture<MigrationsReport> migrations() {
        return external(dispatcher.call(Opcode.MIGRATIONS, EMPTY, false, true)
                .thenApply(reply -> reply.parse(body -> MigrationsReport.fromJson(Responses.parseBytes(body)))));
    }

    CompletableFuture<BalanceReport> balance(boolean dryRun) {
        return external(dispatcher.call(Opcode.BALANCE, new byte[] {(byte) (dryRun ? 1 : 0)}, false, dryRun)
                .thenApply(reply -> reply.parse(body -> BalanceReport.fromJson(Responses.parseBytes(body)))));
    }

    CompletableFuture<SplitResult> split(byte[] key) {
        String problem = Validation.key(limits, key);
        if (problem != null) {
            return CompletableFuture.failedFuture(Errors.invalid(problem));
        }
        return external(dispatcher.call(Opcode.SPLIT, new KeyRequest(key).encode(), false, false)
                .thenApply(reply -> reply.parse(body -> SplitResult.fromJson(Responses.parseBytes(body)))));
    }

    @Override
    public CompletableFuture<Traced<Void>> insertTraced(byte[] key, byte[] value) {
        String problem = Validation.entry(limits, key, value);
        if (problem != null) {
            return CompletableFuture.failedFuture(Errors.invalid(problem));
        }
        long start = System.nanoTime();
        return external(sendInsert(key, value, true)
                .thenApply(reply -> new Traced<Void>(null, reply.hops(), System.nanoTime() - start)));
    }

    @Override
    public CompletableFuture<Traced<Optional<byte[]>>> searchTraced(byte[] key) {
        String problem = Validation.key(limits, key);
        if (problem != null) {
            return CompletableFuture.failedFuture(Errors.invalid(problem));
        }
        long start = System.nanoTime();
        return external(sendSearch(key, true)
                .thenApply(reply -> new Traced<>(searchResult(reply), reply.hops(), System.nanoTime() - start)));
    }

    /** An insert lost in flight is not sent again: it may have been carried out (see {@link Dispatcher}). */
    private CompletableFuture<Reply> sendInsert(byte[] key, byte[] value, boolean traced) {
        return keyed(Opcode.INSERT, new InsertRequest(key, value).encode(), key, traced, false);
    }

    private CompletableFuture<Reply> sendSearch(byte[] key, boolean traced) {
        return keyed(Opcode.SEARCH, new KeyRequest(key).encode(), key, traced, true);
    }

    private static Optional<byte[]> searchResult(Reply reply) {
        return Optional.ofNullable(reply.parse(Responses::parseSearch));
    }

    /**
     * Returns a future that fails with the bare exception rather than a {@code CompletionException} wrapping
     * it, so that callers' handlers see the {@link AutoDiskException} subclass directly.
     */
    private static <T> CompletableFuture<T> external(CompletableFuture<T> inner) {
        CompletableFuture<T> out = new CompletableFuture<>();
        inner.whenComplete((value, error) -> {
            if (error == null) {
                out.complete(value);
            } else {
                out.completeExceptionally(Errors.unwrap(error));
            }
        });
        return out;
    }
}
