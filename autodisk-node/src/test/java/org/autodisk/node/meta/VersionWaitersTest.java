package org.autodisk.node.meta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

class VersionWaitersTest {

    private static MetaState at(long version) {
        return new MetaState(version, "range", List.of(), List.of(), 1, new MetaState.Creation(List.of("d1"),
                List.of()));
    }

    @Test
    void aWaitCompletesWhenItsVersionIsAppliedAndNotBefore() {
        VersionWaiters w = new VersionWaiters("d1");
        w.accept(at(5));
        CompletableFuture<MetaState> six = w.await(6, Duration.ofSeconds(10));
        CompletableFuture<MetaState> eight = w.await(8, Duration.ofSeconds(10));
        assertThat(six).isNotDone();
        w.accept(at(7));
        assertThat(six.join().version()).isEqualTo(7);
        assertThat(eight).isNotDone();
        w.accept(at(8));
        assertThat(eight.join().version()).isEqualTo(8);
    }

    @Test
    void anOlderStateNeverLowersWhatWasApplied() {
        VersionWaiters w = new VersionWaiters("d1");
        w.accept(at(7));
        w.accept(at(5));
        assertThat(w.await(7, Duration.ofMillis(1))).isCompletedWithValueMatching(s -> s.version() == 7);
    }

    @Test
    void aWaitThatTimesOutFailsNamingBothVersions() {
        VersionWaiters w = new VersionWaiters("d1");
        w.accept(at(3));
        CompletableFuture<MetaState> f = w.await(9, Duration.ofMillis(20));
        assertThatThrownBy(f::join).isInstanceOf(CompletionException.class).cause()
                .isInstanceOf(MetadataException.class)
                .hasMessageContaining("had not applied metadata version 9 within 20 ms (it has applied 3)");
        w.accept(at(9));
        assertThat(w.await(9, Duration.ofMillis(1))).isDone();
    }
}
