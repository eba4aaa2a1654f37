package org.autodisk.node.cluster;

import org.autodisk.node.ledger.WriterSettings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.MiniCluster;
import org.autodisk.node.ledger.LedgerEntry;
import org.autodisk.node.ledger.LedgerException;
import org.autodisk.node.ledger.LedgerPeers;
import org.autodisk.node.ledger.LedgerReader;
import org.autodisk.node.ledger.LedgerRecovery;
import org.autodisk.node.ledger.LedgerTimer;
import org.autodisk.node.ledger.LedgerWriter;
import org.autodisk.node.ledger.WriterState;
import org.autodisk.node.meta.CommandResult;
import org.autodisk.node.meta.LedgerInfo;
import org.autodisk.node.meta.LedgerState;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.Metadata;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.wire.LogRecord;
import org.autodisk.node.wire.PeerOp;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ledger protocol between real nodes: a data node's writer, recovery and reader reach two log nodes' journals
 * over the peer channel (LEDGER_APPEND, LEDGER_FENCE, LEDGER_READ). Entries are acknowledged once both hold them; a
 * log node that goes down is dropped from the ensemble by a committed change; a recovery fences the ledger, and the
 * fence and the entries survive a restart of the log node.
 */
class LedgersOverTheNetworkTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(3);
    /** The tests write ledgers by hand for the range of d3 (node 2), stopped first, through d1's peer channel. */
    private static final Map<String, Object> HAND_WRITTEN = Map.of();
    private static final int D3 = 2;
    private static final int L1 = 3;
    private static final int L2 = 4;

    @TempDir
    Path dir;

    private final ScheduledExecutorService clock = Executors.newSingleThreadScheduledExecutor();
    private final LedgerTimer timer = (ms, task) -> clock.schedule(task, ms, TimeUnit.MILLISECONDS);

    @AfterEach
    void stopClock() {
        clock.shutdownNow();
    }

    @Test
    void aLedgerIsWrittenToBothLogNodesLosesOneFencesDurablyAndReadsBackAfterRestarts() {
        try (MiniCluster c = MiniCluster.start(3, 2, dir, HAND_WRITTEN)) {
            c.stopNode(D3);
            Metadata meta = c.node(0).metadata();
            LedgerPeers peers = LedgerPeers.over(c.node(0).peers());
            AtomicInteger appends = new AtomicInteger();
            LedgerPeers counted = counting(peers, appends);
            LedgerInfo ledger = open(meta, peers, List.of("l1", "l2"));
            AtomicReference<List<String>> up = new AtomicReference<>(List.of("l1", "l2"));
            List<LedgerEntry> applied = new ArrayList<>();
            LedgerWriter writer = new LedgerWriter("d1", ledger, meta, counted, timer,
                    new WriterSettings(2, TIMEOUT, TIMEOUT), up::get, (entries, ack) -> {
                        applied.addAll(entries);
                        ack.run();
                    });

            addAll(writer, 1, 300);
            assertThat(applied).extracting(LedgerEntry::entryId).containsExactlyElementsOf(ids(1, 300));
            assertThat(appends.get()).as("entries added while appends were out went together in later ones")
                    .isLessThan(2 * 300);
            for (String node : List.of("l1", "l2")) {
                assertThat(new LedgerReader(peers).read(ledgerOn(node, ledger), 1, 300).join())
                        .as("held by " + node).containsExactlyElementsOf(applied);
            }

            c.stopNode(L2);
            up.set(List.of("l1"));
            addAll(writer, 301, 310);
            LedgerInfo changed = meta.current().ledger(ledger.id());
            assertThat(changed.lastFragment()).isEqualTo(new LedgerInfo.Fragment(301, List.of("l1")));

            LedgerInfo closed = new LedgerRecovery("d1", meta, peers, timer, TIMEOUT).recover(ledger.id()).join();
            assertThat(closed.state()).isEqualTo(LedgerState.CLOSED);
            assertThat(closed.lastEntry()).isEqualTo(310);
            assertThatThrownBy(() -> writer.add(0, 1, LogRecord.PUT, bytes("late"), bytes("x")).join())
                    .cause().isInstanceOfSatisfying(LedgerException.class, e -> assertThat(e.kind())
                            .isEqualTo(LedgerException.Kind.OUTCOME_UNKNOWN));

            c.stopNode(L1);
            c.startNode(L1);
            c.startNode(L2);
            assertThat(new LedgerReader(peers).read(closed, 1, 310).join()).hasSize(310)
                    .extracting(LedgerEntry::entryId).containsExactlyElementsOf(ids(1, 310));
            assertThatThrownBy(() -> peers.append("l1", ledger.id(), 301, false, 310, List.of(entry(ledger, 311)))
                    .join()).cause().isInstanceOfSatisfying(LedgerException.class, e -> {
                        assertThat(e.kind()).as("the fence survived the restart").isEqualTo(
                                LedgerException.Kind.FENCED);
                        assertThat(e.getMessage()).contains("fenced");
                    });
            assertThat(peers.read("l2", ledger.id(), 301, 10).join()).as("l2 was out of the last fragment").isEmpty();
            assertThat(peers.read("l2", ledger.id(), 300, 10).join()).hasSize(1);

            assertThat(meta.submit(new MetaCommand.DeleteLedger(ledger.id()), TIMEOUT).join().applied()).isTrue();
            assertThat(new LedgerRecovery("d1", meta, peers, timer, TIMEOUT).recover(ledger.id()).join())
                    .as("a deleted ledger was closed: nothing to recover, and no waiting for it").isNull();
        }
    }

    @Test
    void anEntryWhoseLogNodeRefusesTheConnectionIsNotWrittenAndOneThatWasSentIsUnknown() {
        try (MiniCluster c = MiniCluster.start(3, 1, null, HAND_WRITTEN)) {
            c.stopNode(D3);
            Metadata meta = c.node(0).metadata();
            LedgerPeers peers = LedgerPeers.over(c.node(0).peers());
            LedgerInfo ledger = open(meta, peers, List.of("l1"));
            LedgerWriter writer = new LedgerWriter("d1", ledger, meta, peers, timer,
                    new WriterSettings(1, TIMEOUT, TIMEOUT), List::of, (entries, ack) -> ack.run());
            addAll(writer, 1, 3);
            c.stopNode(L1);
            assertThatThrownBy(() -> writer.add(0, 1, LogRecord.PUT, bytes("k4"), bytes("v4")).join())
                    .cause().isInstanceOfSatisfying(LedgerException.class, e -> {
                        assertThat(e.kind()).as(e.getMessage()).isEqualTo(LedgerException.Kind.UNAVAILABLE);
                        assertThat(e.getMessage()).contains("reached no log node");
                    });
            assertThat(writer.state()).isEqualTo(WriterState.BROKEN);
        }
    }

    @Test
    void aGapIsRefusedAndABadBodyIsAnsweredMalformedWithoutChangingTheLedger() {
        try (MiniCluster c = MiniCluster.start(3, 1, null, HAND_WRITTEN)) {
            c.stopNode(D3);
            LedgerPeers peers = LedgerPeers.over(c.node(0).peers());
            LedgerInfo ledger = open(c.node(0).metadata(), peers, List.of("l1"));
            assertThat(peers.append("l1", ledger.id(), 1, false, 0, List.of(entry(ledger, 1))).join()).isEqualTo(1);
            assertThatThrownBy(() -> peers.append("l1", ledger.id(), 1, false, 1, List.of(entry(ledger, 3))).join())
                    .cause().isInstanceOfSatisfying(LedgerException.class, e -> assertThat(e.kind())
                            .isEqualTo(LedgerException.Kind.GAP));

            byte[] body = new org.autodisk.node.wire.LedgerAppendRequest(ledger.id(), 1, false, 1, List.of(
                    entry(ledger, 2).toRecord(), entry(ledger, 3).toRecord())).encode();
            body[body.length - 5] ^= 1;
            byte[] answer = c.node(0).peers().send("l1", PeerOp.LEDGER_APPEND.request(body)).join().body();
            assertThat(Responses.status(answer)).isEqualTo(Status.MALFORMED);
            assertThat(Responses.errorMessage(answer)).contains("CRC32C");
            byte[] toData = c.node(0).peers().send("d2", PeerOp.LEDGER_READ.request(
                    new org.autodisk.node.wire.LedgerReadRequest(ledger.id(), 1, 1).encode())).join().body();
            assertThat(Responses.status(toData)).isEqualTo(Status.WRONG_ROLE);
            assertThat(c.node(L1).log().ledgers().store().lastEntry(ledger.id())).isEqualTo(1);
        }
    }

    @Test
    void appendsSentWhileTheConnectionIsBeingMadeArriveInTheOrderTheyWereSent() {
        try (MiniCluster c = MiniCluster.start(3, 1, null, HAND_WRITTEN)) {
            c.stopNode(D3);
            LedgerPeers peers = LedgerPeers.over(c.node(0).peers());
            LedgerInfo ledger = open(c.node(0).metadata(), peers, List.of("l1"));
            c.stopNode(L1);
            c.startNode(L1);
            List<CompletableFuture<Long>> answers = new ArrayList<>();
            for (int i = 1; i <= 100; i++) {
                answers.add(peers.append("l1", ledger.id(), 1, false, 0, List.of(entry(ledger, i))));
            }
            assertThat(answers.stream().map(CompletableFuture::join).toList()).as("no append overtook another")
                    .containsExactlyElementsOf(ids(1, 100));
        }
    }

    /** Counts the appends a writer sends. */
    private static LedgerPeers counting(LedgerPeers peers, AtomicInteger appends) {
        return new LedgerPeers() {
            @Override
            public CompletableFuture<Long> append(String logNode, long ledgerId, long fragmentStart,
                    boolean recovery, long lac, List<LedgerEntry> entries) {
                appends.incrementAndGet();
                return peers.append(logNode, ledgerId, fragmentStart, recovery, lac, entries);
            }

            @Override
            public CompletableFuture<Fenced> fence(String logNode, long ledgerId) {
                return peers.fence(logNode, ledgerId);
            }

            @Override
            public CompletableFuture<List<Long>> confirm(String logNode, List<Long> ledgerIds) {
                return peers.confirm(logNode, ledgerIds);
            }

            @Override
            public CompletableFuture<List<LedgerEntry>> read(String logNode, long ledgerId, long from, int max) {
                return peers.read(logNode, ledgerId, from, max);
            }
        };
    }

    /** Opens a ledger of d3's range as a new writer would: after recovering and closing the one d3 left open. */
    private LedgerInfo open(Metadata meta, LedgerPeers peers, List<String> ensemble) {
        RangeDescriptor range = meta.current().ranges().stream().filter(r -> r.owner().equals("d3")).findFirst()
                .orElseThrow();
        CommandResult r = null;
        // d3 may still be opening its ledger as it stops: this replica may learn of it only after a first look
        for (int attempt = 0; attempt < 20 && (r == null || !r.applied()); attempt++) {
            meta.current().ledgersOf(range).stream().filter(l -> l.state() != LedgerState.CLOSED)
                    .forEach(l -> new LedgerRecovery("d1", meta, peers, timer, TIMEOUT).recover(l.id()).join());
            r = meta.submit(new MetaCommand.OpenLedger(range.id(), range.epoch(), "d3", ensemble), TIMEOUT).join();
        }
        assertThat(r.applied()).as(r.refusal()).isTrue();
        return meta.current().ledger(r.ledgerId());
    }

    /** The ledger as a reader of one log node sees it: that node alone in every fragment. */
    private static LedgerInfo ledgerOn(String node, LedgerInfo l) {
        return new LedgerInfo(l.id(), l.rangeId(), l.low(), l.high(), l.epoch(), l.writer(),
                List.of(new LedgerInfo.Fragment(1, List.of(node))), l.state(), l.lastEntry());
    }

    private static void addAll(LedgerWriter writer, int from, int to) {
        List<CompletableFuture<LedgerEntry>> all = new ArrayList<>();
        for (int i = from; i <= to; i++) {
            all.add(writer.add(0, 1, LogRecord.PUT, bytes("k" + i), bytes("v" + i)));
        }
        try {
            CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).join();
        } catch (CompletionException e) {
            throw new AssertionError("writer " + writer.state() + " at " + writer.lastAcknowledged(), e);
        }
    }

    private static LedgerEntry entry(LedgerInfo l, long id) {
        return new LedgerEntry(l.id(), id, l.rangeId(), l.epoch(), LogRecord.PUT, bytes("k" + id), bytes("v" + id));
    }

    private static List<Long> ids(long from, long to) {
        List<Long> out = new ArrayList<>();
        for (long i = from; i <= to; i++) {
            out.add(i);
        }
        return out;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
