package org.autodisk.node.directory.fatbtree;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a node keeps of the changes other nodes coordinated: the record a batch carries, until the coordinator releases
 * the change (then the change is remembered as released) or restarts; a release before any batch leaves nothing.
 */
class PeerRecordsTest {

    private static final Page PAGE = new Page(5, 1, new byte[0], null, List.of(new Entry(new byte[0], 1,
            List.of("d1", "d2"))), 3);

    private static PageMessage.Batch batch(long change) {
        PageBatch b = new PageBatch(change, List.of(PAGE), List.of(), -1);
        return new PageMessage.Batch(b, Map.of("d1", b, "d2", b));
    }

    @Test
    void aRecordIsKeptUntilItsCoordinatorReleasesTheChange() {
        PeerRecords r = new PeerRecords();
        r.take("d1", batch(7));
        r.take("d3", new PageMessage.Release(7));
        assertThat(r.of("d1")).containsOnlyKeys(7L);
        assertThat(r.of("d3")).isEmpty();
        assertThat(r.isEmpty()).isFalse();
        r.take("d1", new PageMessage.Release(7));
        assertThat(r.of("d1")).isEmpty();
        assertThat(r.releasedOf("d1")).containsExactly(7L);
        assertThat(r.isEmpty()).isTrue();
    }

    @Test
    void aNodeStillStartingAnswersARootFetchWithTheRecordsItsStoreKept() {
        InMemoryPageStore store = new InMemoryPageStore();
        PeerRecords before = new PeerRecords(store);
        before.take("d2", batch(7));
        before.take("d2", batch(8));
        before.take("d2", new PageMessage.Release(8));
        FatBtreeDirectory starting = new FatBtreeDirectory("d1", 3, (from, to, m) -> { }, store);
        try {
            PageFetch.Answer a = starting.answer("d2", PageFetch.ROOT).join();
            assertThat(a.takingUp()).isTrue();
            assertThat(a.records()).containsOnlyKeys(7L);
            assertThat(a.released()).containsExactly(8L);
            assertThat(starting.answer("d2", 5).join().records()).as("only with the root").isEmpty();
        } finally {
            starting.close();
        }
    }

    @Test
    void aReleaseBeforeAnyBatchIsNotRememberedAsWrittenEverywhere() {
        PeerRecords r = new PeerRecords();
        r.take("d1", new PageMessage.Release(7)); // the change starts over before it writes
        r.take("d1", batch(7));
        assertThat(r.releasedOf("d1")).isEmpty();
        assertThat(r.of("d1")).containsOnlyKeys(7L);
    }

    @Test
    void theCoordinatorsRestartDropsItsRecordsButThoseSentAgainAndOnlyTheLastReleasesAreKept() {
        PeerRecords r = new PeerRecords();
        for (long c = 1; c <= PeerRecords.RELEASED + 3; c++) {
            r.take("d1", batch(c));
            r.take("d1", new PageMessage.Release(c));
        }
        assertThat(r.releasedOf("d1")).hasSize(PeerRecords.RELEASED).startsWith(4L);
        r.take("d1", batch(99));
        r.take("d1", batch(98));
        r.take("d2", batch(100));
        r.take("d1", new PageMessage.Restarted(List.of(98L)));
        assertThat(r.of("d1")).as("the change it sent again stays").containsOnlyKeys(98L);
        assertThat(r.releasedOf("d1")).isEmpty();
        assertThat(r.of("d2")).containsOnlyKeys(100L);
    }
}
