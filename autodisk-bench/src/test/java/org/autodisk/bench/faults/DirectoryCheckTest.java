package org.autodisk.bench.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.autodisk.core.cluster.DirectoryReport;
import org.autodisk.core.cluster.DirectoryReport.IndexPage;
import org.autodisk.core.cluster.DirectoryReport.NodeIndex;
import org.autodisk.core.cluster.RangeStatus;
import org.junit.jupiter.api.Test;

/** What the fault run's settle finds wrong in a Fat-Btree's copies, as {@code directory} reports them. */
class DirectoryCheckTest {

    private static final IndexPage ROOT = new IndexPage(1, 2, "", null, 2, List.of("d1", "d2"), 5);
    private static final IndexPage LEFT = new IndexPage(2, 1, "", "m", 2, List.of("d1"), 3);
    private static final IndexPage RIGHT = new IndexPage(3, 1, "m", null, 1, List.of("d2"), 4);
    private static final List<RangeStatus> RANGES = List.of(range(0, "", "d1"), range(1, "68", "d1"),
            range(2, "6d", "d2"));

    private static RangeStatus range(int id, String lowHex, String owner) {
        return new RangeStatus(id, lowHex, null, owner, 1, null, List.of(), 0, 1, "serving", 0, 0, null);
    }

    private static DirectoryReport report(NodeIndex... nodes) {
        return new DirectoryReport("d1", "fat-btree", 9, 2, 3, List.of(nodes));
    }

    private static NodeIndex d1(IndexPage... pages) {
        return new NodeIndex("d1", "fat-btree", pages.length, 2, List.of(pages), List.of("", "h"), null);
    }

    private static NodeIndex d2(List<String> leaves, IndexPage... pages) {
        return new NodeIndex("d2", "fat-btree", pages.length, leaves.size(), List.of(pages), leaves, null);
    }

    @Test
    void copiesThatAgreeWithEachOtherAndTheMetadataPass() {
        assertThat(DirectoryCheck.problems(report(d1(ROOT, LEFT), d2(List.of("m"), ROOT, RIGHT)), RANGES)).isEmpty();
        NodeIndex joined = new NodeIndex("d3", "fat-btree", 0, 0, List.of(), List.of(), null);
        assertThat(DirectoryCheck.problems(report(d1(ROOT, LEFT), d2(List.of("m"), ROOT, RIGHT), joined), RANGES))
                .as("a node that owns no leaf holds no page, not even the root").isEmpty();
    }

    @Test
    void copiesOfOnePageThatDifferAreFound() {
        IndexPage older = new IndexPage(1, 2, "", null, 2, List.of("d1", "d2"), 4);
        assertThat(DirectoryCheck.problems(report(d1(ROOT, LEFT), d2(List.of("m"), older, RIGHT)), RANGES))
                .singleElement().asString().contains("copies of page 1 differ");
    }

    @Test
    void copiesWithTheSameCountButOtherEntriesAreFound() {
        IndexPage a = new IndexPage(3, 1, "m", null, 1, List.of("d2"), 4, "0000abcd");
        IndexPage b = new IndexPage(3, 1, "m", null, 1, List.of("d2"), 4, "0000abce");
        NodeIndex d3 = new NodeIndex("d3", "fat-btree", 2, 0, List.of(ROOT, b), List.of(), null);
        assertThat(DirectoryCheck.problems(report(d1(ROOT, LEFT), d2(List.of("m"), ROOT, a), d3), RANGES))
                .anySatisfy(p -> assertThat(p).contains("copies of page 3 differ"));
    }

    @Test
    void aPageHeldOutsideItsCopySetOrARootMissingIsFound() {
        assertThat(DirectoryCheck.problems(report(d1(ROOT, LEFT, RIGHT), d2(List.of("m"), ROOT, RIGHT)), RANGES))
                .singleElement().asString().contains("page 3 is held by [d1, d2], not by [d2]");
        assertThat(DirectoryCheck.problems(report(d1(ROOT, LEFT), d2(List.of("m"), RIGHT)), RANGES))
                .singleElement().asString().contains("page 1 is held by [d1]");
    }

    @Test
    void leavesThatLagTheMetadataAreFound() {
        assertThat(DirectoryCheck.problems(report(d1(ROOT, LEFT), d2(List.of(), ROOT, RIGHT)), RANGES))
                .singleElement().asString().contains("d2's copies name it the owner of the leaves at []");
    }

    @Test
    void aNodeThatDidNotAnswerIsFoundAndTheRangeMapIsNotChecked() {
        NodeIndex silent = new NodeIndex("d2", "fat-btree", 0, 0, List.of(), List.of(), "timed out");
        assertThat(DirectoryCheck.problems(report(d1(ROOT, LEFT), silent), RANGES))
                .anySatisfy(p -> assertThat(p).contains("d2 did not answer: timed out"));
        assertThat(DirectoryCheck.problems(new DirectoryReport("d1", "range", 9, 0, 0, List.of(silent)), RANGES))
                .isEmpty();
    }
}
