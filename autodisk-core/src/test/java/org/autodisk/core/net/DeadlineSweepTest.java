package org.autodisk.core.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Delayed;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * {@link DeadlineSweep} on a hand-run scheduler: at most one sweep stays live whatever the order of deadlines, a
 * replaced sweep that runs anyway does nothing, and a request made pending during a sweep's scan is covered.
 */
class DeadlineSweepTest {

    private final List<Hand> tasks = new ArrayList<>();
    private int scans;
    private long pendingNext = Long.MAX_VALUE;
    private Runnable duringScan = () -> { };

    private final DeadlineSweep sweep = new DeadlineSweep((task, nanos) -> add(task), scan());

    private LongUnaryOperator scan() {
        return now -> {
            scans++;
            duringScan.run();
            return pendingNext;
        };
    }

    private Hand add(Runnable task) {
        Hand h = new Hand(task);
        tasks.add(h);
        return h;
    }

    private long live() {
        return tasks.stream().filter(t -> !t.cancelled && !t.ran).count();
    }

    @Test
    void aShorterDeadlineReplacesTheSweepAndTheReplacedOneDoesNothing() {
        long now = sweep.now();
        sweep.due(now + 60_000_000_000L);
        sweep.due(now + 10_000_000L);
        assertThat(tasks).hasSize(2);
        assertThat(tasks.get(0).cancelled).isTrue();
        assertThat(live()).isEqualTo(1);
        tasks.get(0).run(); // a cancelled task that ran anyway
        assertThat(scans).isZero();
        sweep.due(now + 20_000_000L); // later than the registered one: nothing new
        assertThat(tasks).hasSize(2);
        pendingNext = now + 60_000_000_000L;
        tasks.get(1).run();
        assertThat(scans).isEqualTo(1);
        assertThat(live()).as("the long request's sweep, once").isEqualTo(1);
        for (int i = 1; i <= 40; i++) { // short requests in turn while the long one waits
            sweep.due(sweep.now() + i);
            tasks.get(tasks.size() - 1).run();
        }
        assertThat(live()).isEqualTo(1);
    }

    @Test
    void aRequestMadePendingDuringAScanKeepsOneLiveSweep() {
        long now = sweep.now();
        sweep.due(now + 1_000);
        pendingNext = now + 5_000;
        duringScan = () -> sweep.due(now + 9_000); // another thread sends while the scan runs
        tasks.get(0).run();
        assertThat(tasks).hasSize(3);
        assertThat(tasks.get(1).cancelled).as("the sender's sweep, replaced by the scan's earlier one").isTrue();
        assertThat(live()).isEqualTo(1);
        duringScan = () -> { };
        pendingNext = Long.MAX_VALUE;
        tasks.get(2).run();
        assertThat(live()).as("nothing pending: no sweep").isZero();
        sweep.due(sweep.now() + 1);
        assertThat(live()).as("the next request registers again").isEqualTo(1);
    }

    /** A task the test runs by hand. */
    private static final class Hand implements ScheduledFuture<Object> {
        private final Runnable task;
        private boolean cancelled;
        private boolean ran;

        Hand(Runnable task) {
            this.task = task;
        }

        void run() {
            ran = true;
            task.run();
        }

        @Override
        public boolean cancel(boolean interrupt) {
            cancelled = true;
            return true;
        }

        @Override
        public boolean isCancelled() {
            return cancelled;
        }

        @Override
        public boolean isDone() {
            return ran || cancelled;
        }

        @Override
        public Object get() {
            return null;
        }

        @Override
        public Object get(long timeout, TimeUnit unit) {
            return null;
        }

        @Override
        public long getDelay(TimeUnit unit) {
            return 0;
        }

        @Override
        public int compareTo(Delayed o) {
            return 0;
        }
    }
}
