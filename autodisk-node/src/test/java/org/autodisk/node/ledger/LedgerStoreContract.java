package org.autodisk.node.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.stream.LongStream;
import org.autodisk.node.wire.LogRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What every {@link LedgerStore} must do, in memory or on disk: each implementation's test extends this. */
abstract class LedgerStoreContract {

    LedgerStore store;

    /**
     * Returns the store under test (created once per test).
     *
     * @return a fresh, empty store
     */
    abstract LedgerStore create() throws Exception;

    LedgerStore store() throws Exception {
        if (store == null) {
            store = create();
        }
        return store;
    }

    @AfterEach
    void closeStore() {
        if (store != null) {
            store.close();
        }
    }

    static List<LedgerEntry> entries(long ledger, long from, long to) {
        return LongStream.rangeClosed(from, to).mapToObj(i -> new LedgerEntry(ledger, i, 3, 2, LogRecord.PUT,
                ("k" + ledger + "-" + i).getBytes(), ("v" + i).getBytes())).toList();
    }

    static List<LedgerEntry> entries(long from, long to) {
        return entries(7, from, to);
    }

    static LedgerException.Kind refusal(CompletableFuture<?> f) {
        try {
            f.join();
        } catch (CompletionException e) {
            return ((LedgerException) e.getCause()).kind();
        }
        throw new AssertionError("not refused");
    }

    @Test
    void appendsContinueTheLedgerOrStartTheFragmentNeverLeavingAHole() throws Exception {
        LedgerStore s = store();
        assertThat(s.append(7, 1, false, entries(1, 3)).join()).isEqualTo(3);
        assertThat(s.append(7, 1, false, entries(2, 5)).join()).as("held entries are taken again").isEqualTo(5);
        assertThat(refusal(s.append(7, 1, false, entries(7, 8)))).isEqualTo(LedgerException.Kind.GAP);
        assertThat(s.append(7, 10, false, entries(10, 11)).join()).as("a fragment this node joined at 10")
                .isEqualTo(11);
        assertThat(s.read(7, 1, 100)).extracting(LedgerEntry::entryId).containsExactly(1L, 2L, 3L, 4L, 5L);
        assertThat(s.read(7, 10, 100)).containsExactlyElementsOf(entries(10, 11));
        assertThat(s.lastEntry(7)).isEqualTo(11);
        assertThat(s.lastEntry(8)).isZero();
    }

    @Test
    void pipelinedAppendsContinueWhatWasAcceptedBeforeItIsDurable() throws Exception {
        LedgerStore s = store();
        List<CompletableFuture<Long>> answers = new ArrayList<>();
        for (long i = 1; i <= 200; i += 10) {
            answers.add(s.append(7, 1, false, entries(i, i + 9)));
        }
        answers.forEach(CompletableFuture::join);
        assertThat(s.read(7, 1, 1000)).containsExactlyElementsOf(entries(1, 200));
    }

    @Test
    void ledgersInterleaveAndEachReadsBackWhole() throws Exception {
        LedgerStore s = store();
        for (long i = 1; i <= 50; i++) {
            for (long ledger = 1; ledger <= 4; ledger++) {
                s.append(ledger, 1, false, entries(ledger, i, i));
            }
        }
        s.fence(4).join();
        for (long ledger = 1; ledger <= 4; ledger++) {
            assertThat(s.read(ledger, 1, 1000)).containsExactlyElementsOf(entries(ledger, 1, 50));
            assertThat(s.read(ledger, 48, 2)).containsExactlyElementsOf(entries(ledger, 48, 49));
        }
    }

    @Test
    void aFencedLedgerTakesOnlyRecoveryAppends() throws Exception {
        LedgerStore s = store();
        s.append(7, 1, false, entries(1, 2)).join();
        assertThat(s.fence(7).join()).isEqualTo(2);
        assertThat(refusal(s.append(7, 1, false, entries(3, 3)))).isEqualTo(LedgerException.Kind.FENCED);
        assertThat(s.append(7, 1, true, entries(3, 3)).join()).isEqualTo(3);
        assertThat(s.fenced(7)).isTrue();
        assertThat(s.fenced(8)).isFalse();
        assertThat(s.fence(8).join()).as("a ledger it never held can be fenced").isZero();
    }

    @Test
    void anotherContentUnderAHeldIdIsRefusedAndNothingOfThatAppendIsKept() throws Exception {
        LedgerStore s = store();
        s.append(7, 1, false, entries(1, 2)).join();
        LedgerEntry other = new LedgerEntry(7, 2, 3, 2, LogRecord.PUT, "other".getBytes(), new byte[0]);
        List<LedgerEntry> append = List.of(entries(1, 1).get(0), other, entries(3, 3).get(0));
        assertThatThrownBy(() -> s.append(7, 1, false, append).join()).hasMessageContaining("another content");
        assertThat(s.lastEntry(7)).isEqualTo(2);
        assertThat(s.read(7, 1, 10)).containsExactlyElementsOf(entries(1, 2));
    }

    @Test
    void truncationDropsOnlyWhatIsBelowAndKeepsTheLastEntry() throws Exception {
        LedgerStore s = store();
        s.append(7, 1, false, entries(1, 10)).join();
        s.append(8, 1, false, entries(8, 1, 3)).join();
        assertThat(s.truncate(7, 6).join()).isEqualTo(10);
        assertThat(s.read(7, 1, 100)).as("entries below are gone").isEmpty();
        assertThat(s.read(7, 6, 100)).containsExactlyElementsOf(entries(6, 10));
        assertThat(s.append(7, 1, false, entries(9, 12)).join()).isEqualTo(12);
        s.truncate(7, 100).join();
        assertThat(s.lastEntry(7)).as("a wholly truncated ledger still knows its last entry").isEqualTo(12);
        assertThat(s.append(7, 1, false, entries(13, 13)).join()).isEqualTo(13);
        assertThat(s.read(8, 1, 100)).containsExactlyElementsOf(entries(8, 1, 3));
    }
}
