package org.autodisk.bench.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The history checker on hand-made histories of one key: it accepts what a linearizable register may do (concurrent
 * operations in either order, writes of unknown outcome taking effect late or never, reads of absent after a delete)
 * and reports each anomaly the fault suite looks for.
 */
class HistoryCheckerTest {

    private static Op write(String v, long invoke, long complete, Op.Outcome outcome) {
        return new Op(0, Op.Kind.WRITE, 1, v, invoke, complete, outcome, "none");
    }

    private static Op delete(long invoke, long complete, Op.Outcome outcome) {
        return new Op(0, Op.Kind.DELETE, 1, null, invoke, complete, outcome, "none");
    }

    private static Op read(String v, long invoke, long complete) {
        return new Op(1, Op.Kind.READ, 1, v, invoke, complete, Op.Outcome.OK, "none");
    }

    private static List<String> check(Op... ops) {
        return HistoryChecker.check(List.of(ops)).stream().map(HistoryChecker.Anomaly::what).toList();
    }

    @Test
    void aLinearizableHistoryHasNoAnomaly() {
        assertThat(check(read(null, 0, 1), write("a", 2, 5, Op.Outcome.OK), read("a", 3, 4),
                write("b", 4, 8, Op.Outcome.OK), read("a", 6, 7), read("b", 9, 10), delete(11, 12, Op.Outcome.OK),
                read(null, 13, 14))).isEmpty();
        assertThat(check(write("a", 0, 1, Op.Outcome.OK), write("u", 2, 3, Op.Outcome.INFO), read("a", 4, 5),
                read("u", 20, 21), read("u", 30, 31))).as("an unknown write may take effect late").isEmpty();
        assertThat(check(write("a", 0, 1, Op.Outcome.OK), delete(2, 3, Op.Outcome.INFO), read("a", 4, 5),
                read(null, 6, 7))).as("so may an unknown delete").isEmpty();
    }

    @Test
    void aLostAcknowledgedWriteIsAStaleRead() {
        assertThat(check(write("a", 0, 1, Op.Outcome.OK), write("b", 2, 3, Op.Outcome.OK), read("a", 10, 11)))
                .singleElement().asString().startsWith("a stale read");
        assertThat(check(write("a", 0, 1, Op.Outcome.OK), read(null, 2, 3))).as("a write lost to absent")
                .singleElement().asString().startsWith("a stale read");
        assertThat(check(write("a", 0, 1, Op.Outcome.OK), delete(2, 3, Op.Outcome.OK), read("a", 4, 5)))
                .as("a delete lost").singleElement().asString().startsWith("a stale read");
    }

    @Test
    void aValueNeverWrittenOrRefusedOrFromTheFutureIsReported() {
        assertThat(check(read("x", 0, 1))).containsExactly("a read returned a value no write wrote");
        assertThat(check(write("a", 0, 1, Op.Outcome.FAIL), read("a", 2, 3)))
                .containsExactly("a read returned the value of a write that was refused");
        assertThat(check(read("a", 0, 1), write("a", 2, 3, Op.Outcome.OK)))
                .containsExactly("a read returned a value before its write began");
    }

    @Test
    void aReadThatGoesBackInTimeIsReported() {
        // a and b overlap, so either order is fine, but once a read returned b a later read may not return a
        // again if b began after a was acknowledged
        assertThat(check(write("a", 0, 2, Op.Outcome.OK), write("b", 1, 10, Op.Outcome.OK), read("b", 3, 4),
                read("a", 5, 6))).isEmpty();
        assertThat(check(write("a", 0, 2, Op.Outcome.OK), write("b", 3, 10, Op.Outcome.OK), read("b", 4, 5),
                read("a", 6, 7))).singleElement().asString().startsWith("a read went back in time");
        assertThat(check(write("a", 0, 2, Op.Outcome.OK), write("b", 3, 10, Op.Outcome.OK), read("b", 4, 5),
                read(null, 6, 7))).as("back to absent, stale too").anyMatch(a -> a.startsWith("a read went back in "
                + "time")).anyMatch(a -> a.startsWith("a stale read"));
    }
}
