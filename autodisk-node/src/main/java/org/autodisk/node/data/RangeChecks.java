package org.autodisk.node.data;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiFunction;
import org.autodisk.core.Keys;
import org.autodisk.core.cluster.SplitResult;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.meta.RangeState;
import org.autodisk.node.ops.NodeContext;
import org.autodisk.node.ops.Splits;
import org.autodisk.node.store.LocalStore;
import org.autodisk.node.store.RangeUsage;
import org.autodisk.rules.RangeStats;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every {@code range.check-ms}, on its own thread: measures each range this node owns and serves, reports it to the
 * rules ({@link RangeStats}), and splits the ranges they ask to split at their middle stream, one split at a time,
 * waiting for each to commit. A split that fails (no metadata majority, a concurrent change) is logged and tried
 * again at the next check if the rules still ask for it.
 */
final class RangeChecks implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RangeChecks.class);

    private final NodeContext ctx;
    private final LocalStore store;
    private final Splits splits;
    private final ScheduledExecutorService timer;

    RangeChecks(NodeContext ctx, LocalStore store,
            BiFunction<RangeDescriptor, byte[], MetaCommand.Split> splitCommand) {
        this.ctx = ctx;
        this.store = store;
        this.splits = new Splits(ctx, splitCommand);
        this.timer = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon()
                .name(ctx.nodeId() + "-range-checks").factory());
    }

    /**
     * Starts checking.
     *
     * @param periodMs the period; 0 turns the checks off
     */
    void start(long periodMs) {
        if (periodMs > 0) {
            timer.scheduleWithFixedDelay(this::checkAll, periodMs, periodMs, TimeUnit.MILLISECONDS);
        }
    }

    private void checkAll() {
        try {
            MetaState meta = ctx.metadata().current();
            for (RangeDescriptor r : meta.ranges()) {
                if (r.owner().equals(ctx.nodeId()) && r.state() == RangeState.SERVING && !timer.isShutdown()) {
                    check(r);
                }
            }
        } catch (RuntimeException | Error e) {
            LOG.error("{}: range check failed; checking again in the next period", ctx.nodeId(), e);
        }
    }

    private void check(RangeDescriptor r) {
        RangeUsage u = store.usage(r.low(), r.high());
        if (!ctx.rules().splitRequested(new RangeStats(r.id(), r.span(), u.keys(), u.bytes(), r.generation()))) {
            return;
        }
        byte[] at = store.splitKey(r.low(), r.high());
        if (at == null) {
            LOG.info("{}: the rules asked to split range {} {}, which holds fewer than two streams: not split",
                    ctx.nodeId(), r.id(), r.span());
            return;
        }
        split(r, u, at);
    }

    private void split(RangeDescriptor r, RangeUsage u, byte[] at) {
        try {
            SplitResult s = splits.split(r, at).get(ctx.metadataTimeout().toMillis() * 2, TimeUnit.MILLISECONDS);
            LOG.info("{}: range {} {} holds {} streams and {} bytes: split at {} into ranges {} and {} (metadata v{})",
                    ctx.nodeId(), r.id(), r.span(), u.keys(), u.bytes(), Keys.render(at), s.left().id(),
                    s.right().id(), s.version());
        } catch (ExecutionException e) {
            LOG.warn("{}: split of range {} {} at {} failed, tried again at the next check: {}", ctx.nodeId(), r.id(),
                    r.span(), Keys.render(at), e.getCause().getMessage());
        } catch (TimeoutException e) {
            LOG.warn("{}: split of range {} {} at {} did not finish in time; tried again at the next check",
                    ctx.nodeId(), r.id(), r.span(), Keys.render(at));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops the checks and waits for one under way (it reads the store, which closes after this). */
    @Override
    public void close() {
        timer.shutdownNow();
        try {
            if (!timer.awaitTermination(10, TimeUnit.SECONDS)) {
                LOG.warn("{}: a range check did not stop within 10 s", ctx.nodeId());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
