package org.autodisk.node.directory.fatbtree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.autodisk.core.protocol.ProtocolException;
import org.autodisk.core.protocol.Status;
import org.junit.jupiter.api.Test;

/** The PAGE_FETCH wire form, and what a node's copies answer: its page, and the highest change of a position. */
class PageFetchTest {

    private static final Page ROOT = new Page(5L << 20 | 2L << 12, 2, new byte[0], null, List.of(
            new Entry(new byte[0], (3L << 8 | 1) << 20 | 1L << 12, List.of("d1", "d2")),
            new Entry(new byte[] {0x40}, (9L << 8 | 2) << 20 | 1L << 12, List.of("d3"))), 4);
    private static final Map<String, PageBatch> RECORD = Map.of("d3", new PageBatch(9, List.of(ROOT),
            List.of(new PageBatch.Dropped(4, 2)), ROOT.id()), "d1", new PageBatch(9, List.of(), List.of(), -1));

    @Test
    void requestsAndAnswersGoThereAndBack() {
        PageFetch.Request r = PageFetch.decodeRequest(PageFetch.encodeRequest("d2", PageFetch.ROOT));
        assertThat(r).isEqualTo(new PageFetch.Request("d2", PageFetch.ROOT));
        PageFetch.Answer held = PageFetch.decodeAnswer(PageFetch.encodeAnswer(new PageFetch.Answer(ROOT, 77, false,
                12)));
        assertThat(held.highest()).isEqualTo(77);
        assertThat(held.version()).isEqualTo(12);
        assertThat(held.page().digest()).isEqualTo(ROOT.digest());
        for (boolean takingUp : new boolean[] {false, true}) {
            PageFetch.Answer none = new PageFetch.Answer(null, 3, takingUp, 40);
            assertThat(PageFetch.decodeAnswer(PageFetch.encodeAnswer(none))).isEqualTo(none);
        }
    }

    @Test
    void theHighestChangeOfAPositionCountsPageIdsAndTheChildrenAboveLevelOne() {
        assertThat(PageFetch.highest(List.of(ROOT), 1)).isEqualTo(3L << 8 | 1);
        assertThat(PageFetch.highest(List.of(ROOT), 2)).isEqualTo(9L << 8 | 2);
        assertThat(PageFetch.highest(List.of(ROOT), 3)).isZero();
        Page leaves = new Page(7, 1, new byte[0], null, List.of(new Entry(new byte[0], (50L << 8 | 3) << 20,
                List.of("d4"))), 1);
        assertThat(PageFetch.highest(List.of(leaves), 3)).as("a level-1 entry names a range").isZero();
    }

    @Test
    void cutPaddedAndNamelessRequestsAreMalformed() {
        byte[] ok = PageFetch.encodeRequest("d2", 12);
        assertMalformed(() -> PageFetch.decodeRequest(Arrays.copyOf(ok, ok.length - 1)), "ends early");
        assertMalformed(() -> PageFetch.decodeRequest(Arrays.copyOf(ok, ok.length + 2)), "2 bytes after the page id");
        assertMalformed(() -> PageFetch.decodeRequest(new byte[] {1, 0, 1, 2, 3, 4, 5, 6, 7, 8}), "names no asker");
        assertMalformed(() -> PageFetch.decodeRequest(new byte[0]), "ends early");
    }

    @Test
    void requestsAndAnswersOfAnotherFormatAreRefusedNamingBoth() {
        byte[] request = PageFetch.encodeRequest("d2", 12);
        byte[] answer = PageFetch.encodeAnswer(new PageFetch.Answer(ROOT, 1));
        assertThat(request[0]).isEqualTo((byte) PageFormat.CURRENT);
        assertThat(answer[0]).isEqualTo((byte) PageFormat.CURRENT);
        request[0] = 7;
        answer[0] = 0;
        assertThatThrownBy(() -> PageFetch.decodeRequest(request)).isInstanceOf(ProtocolException.class)
                .hasMessageStartingWith("a page fetch of format 7: this node reads format 1 only")
                .satisfies(e -> assertThat(((ProtocolException) e).status()).isEqualTo(Status.UNSUPPORTED_VERSION));
        assertThatThrownBy(() -> PageFetch.decodeAnswer(answer)).isInstanceOf(ProtocolException.class)
                .hasMessageStartingWith("a page fetch's answer of format 0: this node reads format 1 only");
    }

    @Test
    void cutAndMismarkedAnswersAreMalformed() {
        byte[] ok = PageFetch.encodeAnswer(new PageFetch.Answer(ROOT, 1, false, 0, Map.of(9L, RECORD), List.of(7L)));
        for (int len = 0; len < ok.length; len++) {
            byte[] cut = Arrays.copyOf(ok, len);
            assertMalformed(() -> PageFetch.decodeAnswer(cut), "malformed");
        }
        assertMalformed(() -> PageFetch.decodeAnswer(new byte[] {1, 0, 0, 0}), "ends early");
        byte[] marked = PageFetch.encodeAnswer(new PageFetch.Answer(null, 1));
        marked[17] = 3;
        assertMalformed(() -> PageFetch.decodeAnswer(marked), "marked 3");
        byte[] none = PageFetch.encodeAnswer(new PageFetch.Answer(null, 1));
        assertMalformed(() -> PageFetch.decodeAnswer(Arrays.copyOf(none, none.length + 1)), "1 bytes after");
        byte[] huge = PageFetch.encodeAnswer(new PageFetch.Answer(ROOT, 1));
        huge[18] = 0x7f;
        assertMalformed(() -> PageFetch.decodeAnswer(huge), "a page of");
    }

    @Test
    void aRootAnswerCarriesTheRecordsOfTheAskersChangesAndThoseReleased() {
        PageFetch.Answer a = new PageFetch.Answer(ROOT, 77, false, 12, Map.of(9L, RECORD, 10L, Map.of()),
                List.of(3L, 5L));
        PageFetch.Answer back = PageFetch.decodeAnswer(PageFetch.encodeAnswer(a));
        assertThat(back).isEqualTo(a);
        assertThat(back.records().get(9L).get("d3").puts()).containsExactly(ROOT);
    }

    private static void assertMalformed(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String says) {
        assertThatThrownBy(call).isInstanceOf(ProtocolException.class).hasMessageContaining(says);
    }
}
