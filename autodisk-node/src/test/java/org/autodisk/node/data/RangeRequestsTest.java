package org.autodisk.node.data;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A range's request rate is its count over the last complete window of 10 s, by the clock given. */
class RangeRequestsTest {

    private final AtomicLong now = new AtomicLong(TimeUnit.SECONDS.toNanos(1000));
    private final RangeRequests requests = new RangeRequests(now::get);

    private void seconds(long s) {
        now.addAndGet(TimeUnit.SECONDS.toNanos(s));
    }

    private void serve(int rangeId, int times) {
        for (int i = 0; i < times; i++) {
            requests.served(rangeId);
        }
    }

    @Test
    void theRateIsTheLastCompleteWindowsCountAndFallsToZeroWhenTheRangeGoesQuiet() {
        assertThat(requests.rate(1)).as("never served").isZero();
        serve(1, 500);
        serve(2, 30);
        assertThat(requests.rate(1)).as("the window is not complete yet").isZero();
        seconds(10);
        assertThat(requests.rate(1)).isEqualTo(50.0);
        assertThat(requests.rate(2)).isEqualTo(3.0);
        serve(1, 100);
        assertThat(requests.rate(1)).as("the completed window, not the one filling").isEqualTo(50.0);
        seconds(10);
        assertThat(requests.rate(1)).isEqualTo(10.0);
        assertThat(requests.rate(2)).as("nothing in the last complete window").isZero();
        seconds(25);
        serve(1, 7);
        assertThat(requests.rate(1)).as("the windows between were empty").isZero();
        seconds(10);
        assertThat(requests.rate(1)).isEqualTo(0.7);
    }
}
