package org.autodisk.node.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.stream.LongStream;
import org.autodisk.node.wire.LogRecord;
import org.junit.jupiter.api.Test;

class InMemoryLedgerStoreTest {

    private final InMemoryLedgerStore store = LedgerStore.inMemory("l1");

    private static List<LedgerEntry> entries(long from, long to) {
        return LongStream.rangeClosed(from, to).mapToObj(i -> new LedgerEntry(7, i, 0, 1, LogRecord.PUT,
                ("k" + i).getBytes(), new byte[] {1})).toList();
    }

    private static LedgerException.Kind refusal(Runnable r) {
        try {
            r.run();
        } catch (CompletionException e) {
            return ((LedgerException) e.getCause()).kind();
        }
        throw new AssertionError("not refused");
    }

    @Test
    void appendsContinueTheLedgerOrStartTheFragmentNeverLeavingAHole() {
        assertThat(store.append(7, 1, false, entries(1, 3)).join()).isEqualTo(3);
        assertThat(store.append(7, 1, false, entries(2, 5)).join()).as("held entries are taken again").isEqualTo(5);
        assertThat(refusal(() -> store.append(7, 1, false, entries(7, 8)).join())).isEqualTo(LedgerException.Kind.GAP);
        assertThat(store.append(7, 10, false, entries(10, 11)).join()).as("a fragment this node joined at 10")
                .isEqualTo(11);
        assertThat(store.read(7, 1, 100)).extracting(LedgerEntry::entryId).containsExactly(1L, 2L, 3L, 4L, 5L);
    }

    @Test
    void aFencedLedgerTakesOnlyRecoveryAppends() {
        store.append(7, 1, false, entries(1, 2)).join();
        assertThat(store.fence(7).join()).isEqualTo(2);
        assertThat(refusal(() -> store.append(7, 1, false, entries(3, 3)).join()))
                .isEqualTo(LedgerException.Kind.FENCED);
        assertThat(store.append(7, 1, true, entries(3, 3)).join()).isEqualTo(3);
        assertThat(store.fenced(7)).isTrue();
    }

    @Test
    void aDiskErrorLeavesNothingAndAnotherContentUnderAHeldIdIsRefused() {
        store.failWrites(true);
        assertThat(refusal(() -> store.append(7, 1, false, entries(1, 1)).join()))
                .isEqualTo(LedgerException.Kind.UNAVAILABLE);
        store.failWrites(false);
        assertThat(store.lastEntry(7)).isZero();
        store.append(7, 1, false, entries(1, 1)).join();
        LedgerEntry other = new LedgerEntry(7, 1, 0, 1, LogRecord.PUT, "other".getBytes(), new byte[0]);
        assertThatThrownBy(() -> store.append(7, 1, false, List.of(other))).hasMessageContaining("another content");
    }
}
