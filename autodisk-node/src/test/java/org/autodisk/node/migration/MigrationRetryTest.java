package org.autodisk.node.migration;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A migration whose copy runs keep failing here waits longer before each next run, up to a bound. */
class MigrationRetryTest {

    @Test
    void theWaitDoublesFromOneSecondUpToTen() {
        long[] millis = new long[8];
        for (int i = 0; i < millis.length; i++) {
            millis[i] = TimeUnit.NANOSECONDS.toMillis(Migrations.retryWaitNanos(i + 1));
        }
        assertThat(millis).containsExactly(1000, 2000, 4000, 8000, 10_000, 10_000, 10_000, 10_000);
        assertThat(Migrations.retryWaitNanos(Integer.MAX_VALUE)).isEqualTo(TimeUnit.SECONDS.toNanos(10));
    }
}
