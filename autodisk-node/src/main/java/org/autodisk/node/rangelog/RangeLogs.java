package org.autodisk.node.rangelog;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.autodisk.core.cluster.MetricNames;
import org.autodisk.node.ledger.LedgerPeers;
import org.autodisk.node.ledger.LedgerTimer;
import org.autodisk.node.ledger.WriterSettings;
import org.autodisk.node.meta.Metadata;
import org.autodisk.node.metrics.NodeMetrics;
import org.autodisk.node.peer.PeerChannel;
import org.autodisk.node.store.LocalStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Opens a data node's log as ledgers, one writer per range it owns. */
public final class RangeLogs {

    private static final Logger LOG = LoggerFactory.getLogger(RangeLogs.class);

    /** How often writers restore their multiplicity and log nodes are asked whether they answer. */
    private static final long MAINTAIN_MS = 500;

    private RangeLogs() {
    }

    /**
     * Settings of a data node's range logs.
     *
     * @param self        the data node
     * @param own         its own log nodes (where its ledgers go while they answer)
     * @param all         every log node of the cluster (spares when its own fail)
     * @param writer      multiplicity and deadlines of every writer
     * @param requestWait how long a request waits for its range to serve (recovery, replay) before it fails
     * @param startWait   how long the start of a node that already belongs to a cluster waits for its ranges to
     *                    serve before it goes on (they go on recovering in the background)
     * @param leaseMargin what a new owner waits beyond its former owner's lease (clock drift, answers in flight)
     */
    public record Settings(String self, List<String> own, List<String> all, WriterSettings writer,
            Duration requestWait, Duration startWait, Duration leaseMargin) {
    }

    private static List<String> ownFirst(Settings settings) {
        List<String> out = new ArrayList<>(settings.own());
        settings.all().stream().filter(n -> !out.contains(n)).forEach(out::add);
        return List.copyOf(out);
    }

    /**
     * Opens the log and starts following the metadata: every range this node owns recovers, replays and opens its
     * ledger in the background; requests for a range wait (bounded) until it serves.
     *
     * @param settings the settings
     * @param metadata the cluster metadata
     * @param peers    the peer channel
     * @param store    the data node's store
     * @param backups  the data node's backup copy (a range promoted here is taken over from it)
     * @param copies   the migrations' copies into the store (stopped before a promoted range is taken over)
     * @param metrics  where its figures are registered
     * @return the log
     */
    public static WriteAheadLog open(Settings settings, Metadata metadata, PeerChannel peers, LocalStore store,
            Supplier<LocalStore> backups, CopiesInto copies, NodeMetrics metrics) {
        ScheduledExecutorService clock = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform()
                .name(settings.self() + "-ledger-clock").daemon().factory());
        ExecutorService slow = Executors.newSingleThreadExecutor(Thread.ofPlatform()
                .name(settings.self() + "-takeover").daemon().factory());
        LedgerTimer timer = LedgerTimer.on(clock);
        SlotContext ctx = new SlotContext(settings.self(), metadata, LedgerPeers.over(peers), timer,
                settings.writer(), store, new ApplyThread(settings.self(), store),
                new LogNodesUp(peers, settings.writer().answerTimeout().toMillis()), ownFirst(settings),
                new CutoverLedgers(), backups, slow, settings.leaseMargin(), copies, timer.nanoTime());
        RangeLedgers log = new RangeLedgers(ctx, settings.own(), settings.requestWait(), clock, slow);
        metrics.gauge(MetricNames.WAL_DEGRADED, "1 while some range's ledger has fewer log nodes than its multiplicity",
                () -> log.degraded() ? 1 : 0);
        log.start(MAINTAIN_MS);
        if (metadata.current().bootstrapped()) {
            String waiting = log.awaitServing(settings.startWait());
            if (!waiting.isEmpty()) {
                LOG.warn("{}: starts while some of its ranges do not serve yet ({}); they go on recovering and "
                        + "requests for them wait or fail NODE_UNAVAILABLE meanwhile", settings.self(), waiting);
            }
        }
        return log;
    }
}
