package org.autodisk.node.balance;

import java.util.Comparator;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.autodisk.core.cluster.BalanceReport;
import org.autodisk.node.meta.Member;
import org.autodisk.node.meta.MemberState;
import org.autodisk.node.meta.MetaState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every {@code balance.check-ms}, on the balancing data node only (the lowest id among the data members that are
 * up, so one node decides at a time and any can take over): runs a {@link BalanceRound} and starts what the balance
 * rules propose. Every other data node skips its turn. A round that fails is logged and tried at the next period.
 */
public final class Balancer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Balancer.class);

    private final String self;
    private final BalanceRound round;
    private final Supplier<MetaState> metadata;
    private final ScheduledExecutorService timer;
    private volatile boolean enabled;

    /**
     * Creates the node's balancer; {@link #start} schedules it.
     *
     * @param self     this node's id
     * @param round    the node's balance rounds
     * @param metadata the committed metadata
     */
    public Balancer(String self, BalanceRound round, Supplier<MetaState> metadata) {
        this.self = self;
        this.round = round;
        this.metadata = metadata;
        this.timer = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon()
                .name(self + "-balance").factory());
    }

    /**
     * Starts balancing.
     *
     * @param periodMs the period; 0 turns balancing off
     */
    public void start(long periodMs) {
        enabled = periodMs > 0;
        if (periodMs > 0) {
            timer.scheduleWithFixedDelay(this::tick, periodMs, periodMs, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Returns the data node that balances now.
     *
     * @param meta the committed metadata
     * @return the lowest id among the data members that are up, if any
     */
    public static Optional<String> balancingNode(MetaState meta) {
        return LoadGathering.dataMembers(meta).stream().filter(m -> m.state() == MemberState.UP).map(Member::id)
                .min(Comparator.naturalOrder());
    }

    /** Runs a round in a second, if balancing is on (a failover left ranges without a backup: the rules fill them). */
    public void runSoon() {
        if (!enabled) {
            return;
        }
        try {
            timer.schedule(this::tick, 1, TimeUnit.SECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            LOG.debug("{}: no balance round: the balancer stopped", self);
        }
    }

    private void tick() {
        MetaState meta = metadata.get();
        if (!meta.bootstrapped() || !balancingNode(meta).orElse("").equals(self)) {
            return;
        }
        try {
            log(round.run(false).get(LoadGathering.USAGE_WAIT_MS * 4, TimeUnit.MILLISECONDS));
        } catch (ExecutionException e) {
            LOG.warn("{}: balance round failed, tried again at the next period: {}", self, e.getCause().toString());
        } catch (TimeoutException e) {
            LOG.warn("{}: balance round did not finish in time, tried again at the next period", self);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.error("{}: balance round failed, tried again at the next period", self, e);
        }
    }

    private void log(BalanceReport report) {
        for (BalanceReport.Proposal p : report.proposals()) {
            if (p.migrationId() >= 0) {
                LOG.info("{}: balance: migration {} of range {} {} from {} to {}, {}: {}", self, p.migrationId(),
                        p.rangeId(), p.span(), p.from(), p.to(), p.outcome(), p.reason());
            } else {
                LOG.info("{}: balance: the rules proposed moving range {} {} from {} to {} ({}); {}", self,
                        p.rangeId(), p.span(), p.from(), p.to(), p.reason(), p.outcome());
            }
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
