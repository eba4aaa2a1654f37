package org.autodisk.node.meta;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The leader's version answer waits for its whole commit index to be applied: the waits it uses. */
class AppliedWaitsTest {

    @Test
    void aWaitEndsOnceItsIndexIsAppliedAndNotBefore() {
        AppliedWaits waits = new AppliedWaits();
        assertThat(waits.await(-1)).as("nothing to wait for").isDone();
        CompletableFuture<Void> five = waits.await(5);
        CompletableFuture<Void> seven = waits.await(7);
        waits.applied(4);
        assertThat(five).isNotDone();
        waits.applied(6); // a configuration entry, say, then the next entry: indexes may be skipped
        assertThat(five).isDone();
        assertThat(seven).isNotDone();
        waits.applied(3); // a snapshot of an older index loaded again does not go back
        assertThat(waits.await(6)).isDone();
        waits.applied(7);
        assertThat(seven).isDone();
    }
}
