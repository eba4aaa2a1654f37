package org.autodisk.node.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.meta.CommandResult;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.Metadata;
import org.autodisk.node.peer.PeerChannel;
import org.autodisk.node.peer.PeerException;
import org.autodisk.node.wire.LogRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a writer that stops tells its unacknowledged writes: not written (UNAVAILABLE, safe to send again) only when no
 * log node can have got the entry, else OUTCOME_UNKNOWN (recovery settles it). One log node, m = 1, none to replace
 * it: every failure of an append stops the writer; the appends are answered by hand.
 */
class LedgerWriterOutcomeTest {

    private final List<CompletableFuture<Long>> appends = new ArrayList<>();
    private LedgerSimulation sim;
    private LedgerWriter writer;

    @BeforeEach
    void openLedger() {
        sim = new LedgerSimulation(LedgerScenariosTest.SEED, 1, List.of("l1"));
        Metadata meta = sim.world().metadataFor(() -> true);
        CompletableFuture<CommandResult> opened = meta.submit(new MetaCommand.OpenLedger(0,
                sim.world().state().range(0).epoch(), "d1", List.of("l1")), SimOwner.TIMEOUT);
        sim.runFor(50);
        LedgerPeers peers = new LedgerPeers() {
            @Override
            public CompletableFuture<Long> append(String logNode, long ledgerId, long fragmentStart, boolean recovery,
                    long lac, List<LedgerEntry> entries) {
                CompletableFuture<Long> answer = new CompletableFuture<>();
                appends.add(answer);
                return answer;
            }

            @Override
            public CompletableFuture<Fenced> fence(String logNode, long ledgerId) {
                throw new UnsupportedOperationException();
            }

            @Override
            public CompletableFuture<List<Long>> confirm(String logNode, List<Long> ledgerIds) {
                return new CompletableFuture<>();
            }

            @Override
            public CompletableFuture<List<LedgerEntry>> read(String logNode, long ledgerId, long from, int max) {
                throw new UnsupportedOperationException();
            }
        };
        writer = new LedgerWriter("d1", sim.world().state().ledger(opened.join().ledgerId()), meta, peers, sim.world(),
                new WriterSettings(1, SimOwner.TIMEOUT, SimOwner.TIMEOUT), List::of, (entries, ack) -> ack.run());
    }

    private CompletableFuture<LedgerEntry> add(String key) {
        return writer.add(0, sim.world().state().range(0).epoch(), LogRecord.PUT, key.getBytes(), new byte[1]);
    }

    private static LedgerException.Kind failure(CompletableFuture<LedgerEntry> write) {
        assertThat(write).isCompletedExceptionally();
        return write.handle((e, err) -> ((LedgerException) LedgerException.unwrap(err)).kind()).join();
    }

    @Test
    void anAppendThatNeverLeftThisNodeFailsItsWritesAsNotWritten() {
        CompletableFuture<LedgerEntry> k1 = add("k1");
        appends.get(0).completeExceptionally(LedgerException.notSent("log node l1: connection refused"));
        assertThat(failure(k1)).isEqualTo(LedgerException.Kind.UNAVAILABLE);
        assertThat(writer.state()).isEqualTo(WriterState.BROKEN);
    }

    @Test
    void anAppendThatFailedAfterLeavingMayHaveBeenWritten() {
        CompletableFuture<LedgerEntry> k1 = add("k1");
        appends.get(0).completeExceptionally(new LedgerException(LedgerException.Kind.UNAVAILABLE,
                "log node l1 did not answer: connection closed before the answer"));
        assertThat(failure(k1)).isEqualTo(LedgerException.Kind.OUTCOME_UNKNOWN);
    }

    @Test
    void entriesPastEveryAppendThatMayHaveArrivedAreNotWritten() {
        CompletableFuture<LedgerEntry> k1 = add("k1");
        CompletableFuture<LedgerEntry> k2 = add("k2");
        assertThat(appends).as("one append each").hasSize(2);
        appends.get(1).completeExceptionally(LedgerException.notSent("log node l1: connection refused"));
        assertThat(failure(k1)).as("its append is still out").isEqualTo(LedgerException.Kind.OUTCOME_UNKNOWN);
        assertThat(failure(k2)).isEqualTo(LedgerException.Kind.UNAVAILABLE);
    }

    @Test
    void anEntryBelowAnAppendStillOutIsUnknownEvenIfItsOwnAppendNeverLeft() {
        CompletableFuture<LedgerEntry> k1 = add("k1");
        CompletableFuture<LedgerEntry> k2 = add("k2");
        appends.get(0).completeExceptionally(LedgerException.notSent("log node l1: connection refused"));
        assertThat(failure(k1)).isEqualTo(LedgerException.Kind.OUTCOME_UNKNOWN);
        assertThat(failure(k2)).isEqualTo(LedgerException.Kind.OUTCOME_UNKNOWN);
    }

    @Test
    void entriesThatWereNeverSentAreNotWritten() {
        List<CompletableFuture<LedgerEntry>> writes = new ArrayList<>();
        for (int i = 0; i <= LedgerWriter.MAX_APPENDS_IN_FLIGHT; i++) {
            writes.add(add("k" + i));
        }
        assertThat(appends).as("the last waits for an append to be answered")
                .hasSize(LedgerWriter.MAX_APPENDS_IN_FLIGHT);
        writer.abort("the store failed");
        assertThat(writes.subList(0, LedgerWriter.MAX_APPENDS_IN_FLIGHT)).allMatch(w -> failure(w)
                == LedgerException.Kind.OUTCOME_UNKNOWN);
        assertThat(failure(writes.getLast())).isEqualTo(LedgerException.Kind.UNAVAILABLE);
    }

    @Test
    void thePeerChannelTellsARequestThatNeverLeftFromOneThatMayHave() {
        assertThat(appendFailure(new PeerException(Status.NODE_UNAVAILABLE, "connection refused", false)).notSent())
                .isTrue();
        assertThat(appendFailure(new PeerException(Status.NODE_UNAVAILABLE, "closed after the write", true))
                .notSent()).isFalse();
        assertThat(appendFailure(new PeerException(Status.TIMEOUT, "no answer; a late write may still go", false))
                .notSent()).as("a deadline is never taken for not sent").isFalse();
        PeerChannel throwing = new Channel(null);
        assertThat(((LedgerException) LedgerException.unwrap(new PeerLedgers(throwing).append("l1", 1, 1, false, 0,
                List.of()).handle((v, err) -> err).join())).notSent()).as("refused before sending").isTrue();
    }

    private static LedgerException appendFailure(PeerException e) {
        Throwable err = new PeerLedgers(new Channel(e)).append("l1", 1, 1, false, 0, List.of())
                .handle((v, t) -> t).join();
        return (LedgerException) LedgerException.unwrap(err);
    }

    /** Fails every request with the given exception, or throws at once when it is null. */
    private record Channel(PeerException failure) implements PeerChannel {
        @Override
        public CompletableFuture<Frame> send(String nodeId, Frame request) {
            if (failure == null) {
                throw new IllegalStateException("unknown node " + nodeId);
            }
            return CompletableFuture.failedFuture(failure);
        }

        @Override
        public void close() {
        }
    }
}
