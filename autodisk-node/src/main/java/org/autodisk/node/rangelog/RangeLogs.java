package org.autodisk.node.rangelog;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.autodisk.node.ledger.LedgerPeers;
import org.autodisk.node.ledger.LedgerTimer;
import org.autodisk.node.ledger.LedgerWriter;
import org.autodisk.node.meta.Metadata;
import org.autodisk.node.peer.PeerChannel;
import org.autodisk.node.shipping.WriteAheadLog;
import org.autodisk.node.store.LocalStore;

/** Opens a data node's log as ledgers, one writer per range it owns. */
public final class RangeLogs {

    /** How often writers restore their multiplicity and log nodes are asked whether they answer. */
    private static final long MAINTAIN_MS = 500;

    private RangeLogs() {
    }

    /**
     * Settings of a data node's range logs.
     *
     * @param self     the data node
     * @param logNodes its log nodes (each range's descriptor names those of the range)
     * @param writer   multiplicity and deadlines of every writer
     * @param requestWait how long a request waits for its range to serve (recovery, replay) before it fails
     */
    public record Settings(String self, List<String> logNodes, LedgerWriter.WriterSettings writer,
            Duration requestWait) {
    }

    /**
     * Opens the log and starts following the metadata: every range this node owns recovers, replays and opens its
     * ledger in the background; requests for a range wait (bounded) until it serves.
     *
     * @param settings the settings
     * @param metadata the cluster metadata
     * @param peers    the peer channel
     * @param store    the data node's store
     * @return the log
     */
    public static WriteAheadLog open(Settings settings, Metadata metadata, PeerChannel peers, LocalStore store) {
        ScheduledExecutorService clock = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform()
                .name(settings.self() + "-ledger-clock").daemon().factory());
        SlotContext ctx = new SlotContext(settings.self(), metadata, LedgerPeers.over(peers), LedgerTimer.on(clock),
                settings.writer(), settings.writer().answerTimeout(), store, new ApplyThread(settings.self(), store),
                new LogNodesUp(peers, settings.writer().answerTimeout().toMillis()));
        RangeLedgers log = new RangeLedgers(ctx, settings.logNodes(), settings.requestWait(), clock);
        log.start(MAINTAIN_MS);
        return log;
    }
}
