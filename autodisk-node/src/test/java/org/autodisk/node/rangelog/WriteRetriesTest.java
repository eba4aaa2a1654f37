package org.autodisk.node.rangelog;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.peer.PeerException;
import org.junit.jupiter.api.Test;

/** A write sent again is sent once, or refused once when the node closes before its turn. */
class WriteRetriesTest {

    private final List<Runnable> queued = new ArrayList<>();
    private final AtomicInteger sent = new AtomicInteger();
    private final List<RuntimeException> refused = new ArrayList<>();

    @Test
    void aRetryIsSentOnItsExecutorOnce() {
        WriteRetries retries = new WriteRetries("d1", queued::add);
        retries.submit(sent::incrementAndGet, refused::add);
        assertThat(sent).hasValue(0);
        queued.forEach(Runnable::run);
        retries.close();
        queued.forEach(Runnable::run);
        assertThat(sent).hasValue(1);
        assertThat(refused).isEmpty();
    }

    @Test
    void aRetryDroppedByTheClosingExecutorIsRefusedAndNeverSent() {
        WriteRetries retries = new WriteRetries("d1", queued::add);
        retries.submit(sent::incrementAndGet, refused::add);
        retries.close(); // the executor was shut down with the task still queued
        queued.forEach(Runnable::run);
        assertThat(sent).hasValue(0);
        assertThat(refused).singleElement().isInstanceOfSatisfying(PeerException.class, e -> {
            assertThat(e.status()).isEqualTo(Status.NODE_UNAVAILABLE);
            assertThat(e.written()).isFalse();
        });
    }

    @Test
    void aRetryTheExecutorRejectsIsRefused() {
        WriteRetries retries = new WriteRetries("d1", task -> {
            throw new RejectedExecutionException("shut down");
        });
        retries.submit(sent::incrementAndGet, refused::add);
        assertThat(refused).hasSize(1);
        assertThat(sent).hasValue(0);
    }
}
