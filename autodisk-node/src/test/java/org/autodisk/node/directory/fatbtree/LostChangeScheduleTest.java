package org.autodisk.node.directory.fatbtree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.RangeDescriptor;
import org.junit.jupiter.api.Test;

/**
 * Schedules of a coordinator that loses its page store with its change half-written: d2 splits range 1 (its leaf,
 * under the level-1 page over ranges 0 to 2 that d1, d2 and d3 hold); the page splits, and the page above it, which d4
 * holds too, gains an entry. d2 crashes having sent its batches, of which only some arrived, and restarts with an
 * empty page store. The nodes that applied their batch keep the change's record; d2 takes it back with their roots,
 * finds there the pages no holder got, and sends the change again to every node it writes before it releases its
 * locks. Afterwards every copy is where it belongs and agrees with its peers.
 */
class LostChangeScheduleTest {

    /**
     * d1 applied its batch, d3 and d4 never got theirs: the new right half of the split page is held by d2 and d3
     * only, so without the record no node can give it to d2, and d3, d4 would keep the old copies.
     */
    @Test
    void aChangeOneHolderAppliedIsFinishedFromItsRecord() throws Exception {
        lostAfter(List.of("d1"), List.of("d3", "d4"));
    }

    /** d1 and d3 applied theirs, d4 not: d2 takes the pages up from them and d4 gets its batch again. */
    @Test
    void aChangeAllButOneHolderAppliedIsFinished() throws Exception {
        lostAfter(List.of("d1", "d3"), List.of("d4"));
    }

    /** No node applied its batch: d2 takes the old copies up and the split is carried out again from the metadata. */
    @Test
    void aChangeNoNodeAppliedIsCarriedOutAgain() throws Exception {
        lostAfter(List.of(), List.of("d1", "d3", "d4"));
    }

    /**
     * d2 wrote the change everywhere and released it, but its release to d3 was lost with it: d3 still holds the
     * record, d1 and d4 answer that they were released from it, so d2 does not send it again (the pages it wrote may
     * have moved on since on the nodes that were released).
     */
    @Test
    void aChangeWrittenEverywhereIsNotSentAgainThoughAReleaseWasLost() throws Exception {
        try (TakeUpCluster c = new TakeUpCluster(TakeUpCluster.NODES)) {
            grow(c);
            c.holdWhen("d2", "d3", m -> m instanceof PageMessage.Release);
            split(c, 0x24);
            await("the release to d3 held").atMost(Duration.ofSeconds(10))
                    .until(() -> c.held.getOrDefault("d2>d3", new java.util.ArrayDeque<>()).size() > 0);
            long sentToD3 = c.batchesTaken("d2", "d3");
            loseStoreAndCheck(c, List.of("d3"));
            assertThat(c.batchesTaken("d2", "d3")).isEqualTo(sentToD3);
        }
    }

    /**
     * d2's split reaches d1 and d3, not d4; d2 crashes and restarts with its page store, sends the change again (d4's
     * batch still does not arrive) and RESTARTED, which must not make d1 and d3 drop the record of the change it sent
     * again; then d2 crashes again and loses its page store: it still finishes the change from their records.
     */
    @Test
    void aChangeSentAgainOnARestartKeepsItsRecordForALaterLoss() throws Exception {
        try (TakeUpCluster c = new TakeUpCluster(TakeUpCluster.NODES)) {
            grow(c);
            c.holdWhen("d2", "d4", m -> m instanceof PageMessage.Batch);
            split(c, 0x24);
            await("d1, d3 applied").atMost(Duration.ofSeconds(10))
                    .until(() -> c.batchesTaken("d2", "d1") > 0 && c.batchesTaken("d2", "d3") > 0);
            c.crash("d2");
            c.restart("d2", false, c.replaying("d2"));
            await("d1, d3 took the change again and d2's restart").atMost(Duration.ofSeconds(10))
                    .until(() -> List.of("d1", "d3").stream().allMatch(n -> c.batchesTaken("d2", n) > 1
                            && c.taken("d2", n, PageMessage.Restarted.class) > 0));
            loseStoreAndCheck(c, List.of("d4"));
        }
    }

    /**
     * As in the first schedule, but d1, the only node that keeps the record, does not answer d2's first fetches: d2
     * waits for it (it is not declared failed) rather than take its copies up without the record.
     */
    @Test
    void theNodeTakingUpWaitsForAPeerThatMayKeepARecord() throws Exception {
        try (TakeUpCluster c = new TakeUpCluster(TakeUpCluster.NODES)) {
            halfWritten(c, List.of("d1"), List.of("d3", "d4"));
            c.crash("d2");
            List.of("d3", "d4").forEach(n -> c.lose("d2", n));
            c.mute.add("d1");
            restartWithoutStore(c);
            await("d2 asked its peers three times").atMost(Duration.ofSeconds(20))
                    .until(() -> c.fetchesOfRoots("d2") >= 6);
            assertThat(c.dirs.get("d2").ready()).isFalse();
            c.mute.remove("d1");
            await("d2 took its copies up").atMost(Duration.ofSeconds(20)).until(() -> c.dirs.get("d2").ready());
            c.awaitSettled();
            assertThat(c.violations()).isEmpty();
        }
    }

    /**
     * As in the first schedule, but d1, the only node that keeps the record, crashes and restarts (with its page store)
     * before d2 loses its own: d1 took the record up again from its page store.
     */
    @Test
    void aRecordSurvivesTheRestartOfTheNodeKeepingIt() throws Exception {
        try (TakeUpCluster c = new TakeUpCluster(TakeUpCluster.NODES)) {
            halfWritten(c, List.of("d1"), List.of("d3", "d4"));
            c.crash("d1");
            c.restart("d1", false, c.replaying("d1"));
            await("d1 restarted").atMost(Duration.ofSeconds(10)).until(() -> c.dirs.get("d1").ready());
            loseStoreAndCheck(c, List.of("d3", "d4"));
        }
    }

    /**
     * Crashes d2 with the messages held on its links to {@code lost} (gone with it), restarts it with an empty page
     * store, and checks that once everything settled every copy is where it belongs and agrees with its peers.
     */
    private static void loseStoreAndCheck(TakeUpCluster c, List<String> lost) {
        c.crash("d2");
        lost.forEach(n -> c.lose("d2", n));
        restartWithoutStore(c);
        await("d2 took its copies up").atMost(Duration.ofSeconds(20)).until(() -> c.dirs.get("d2").ready());
        c.awaitSettled();
        assertThat(c.violations()).isEmpty();
    }

    private static void restartWithoutStore(TakeUpCluster c) {
        try {
            c.restart("d2", true, c.replaying("d2"));
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Splits d2's ranges until the next split at 0x24 splits the level-1 page and the level-2 page above it. */
    private static void grow(TakeUpCluster c) {
        c.bootstrap();
        c.awaitSettled();
        for (int at : new int[] {0x1e, 0x19, 0x22}) {
            split(c, at);
            c.awaitSettled();
        }
    }

    private static void lostAfter(List<String> got, List<String> lost) throws Exception {
        try (TakeUpCluster c = new TakeUpCluster(TakeUpCluster.NODES)) {
            halfWritten(c, got, lost);
            loseStoreAndCheck(c, lost);
            assertThat(c.dirs.get("d2").copies().route(new byte[] {0x25}).servedHere()).isTrue();
        }
    }

    /**
     * Grows the tree and has d2 split at 0x24 with its batches to {@code lost} held: returns once {@code got} took
     * theirs and the others are held.
     */
    private static void halfWritten(TakeUpCluster c, List<String> got, List<String> lost) {
        grow(c);
        lost.forEach(n -> c.holdWhen("d2", n, m -> m instanceof PageMessage.Batch));
        split(c, 0x24);
        await("the batches that arrive").atMost(Duration.ofSeconds(10))
                .until(() -> got.stream().allMatch(n -> c.batchesTaken("d2", n) > 0) && lost.stream()
                        .allMatch(n -> c.held.getOrDefault("d2>" + n, new java.util.ArrayDeque<>()).size() > 0));
    }

    private static void split(TakeUpCluster c, int at) {
        RangeDescriptor r = c.state().rangeOf(new byte[] {(byte) at});
        c.submit(new MetaCommand.Split(r.id(), r.generation(), new byte[] {(byte) at}));
    }
}
