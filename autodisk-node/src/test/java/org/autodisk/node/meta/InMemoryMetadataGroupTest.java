package org.autodisk.node.meta;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.autodisk.core.Keys;
import org.junit.jupiter.api.Test;

class InMemoryMetadataGroupTest {

    private static final Duration DEADLINE = Duration.ofSeconds(5);
    private static final String TELLER = "teller";

    /**
     * The schedule of a data node starting while another node bootstraps the metadata: the bootstrapping thread
     * tells d1's listener (range logs), which waits for d1's lock; d1's own thread holds that lock and proposes. The
     * proposal must not wait for the telling thread, or neither goes on.
     */
    @Test
    void aProposalMadeUnderALockAListenerWaitsForDoesNotDeadlock() throws Exception {
        InMemoryMetadataGroup group = new InMemoryMetadataGroup();
        Metadata d1 = group.member("d1");
        Object lock = new Object();
        CountDownLatch listening = new CountDownLatch(1);
        List<Long> told = new CopyOnWriteArrayList<>();
        d1.subscribe(s -> {
            if (Thread.currentThread().getName().equals(TELLER)) {
                listening.countDown();
                synchronized (lock) {
                    told.add(s.version());
                }
            } else {
                told.add(s.version());
            }
        });
        told.clear();
        CompletableFuture<CommandResult> split = CompletableFuture.supplyAsync(() -> {
            synchronized (lock) {
                Thread teller = Thread.ofPlatform().name(TELLER).start(() -> group.member("l1")
                        .submit(MetaTransitionsTest.bootstrap(), DEADLINE).join());
                await(listening);
                CommandResult r = d1.submit(new MetaCommand.Split(0, 1, Keys.utf8("c")), DEADLINE).join();
                assertThat(teller.isAlive()).isTrue();
                return r;
            }
        });
        assertThat(split.get(30, TimeUnit.SECONDS).applied()).isTrue();
        d1.awaitVersion(2, Duration.ofSeconds(30)).join();
        assertThat(told).containsExactly(1L, 2L);
        assertThat(d1.current().ranges()).hasSize(4);
    }

    @Test
    void aProposalFromInsideAListenerIsToldAfterThatListenerReturns() {
        InMemoryMetadataGroup group = new InMemoryMetadataGroup();
        Metadata d1 = group.member("d1");
        List<String> events = new CopyOnWriteArrayList<>();
        d1.subscribe(s -> {
            if (!s.bootstrapped()) {
                return;
            }
            events.add("enter " + s.version());
            if (s.version() == 1) {
                CommandResult r = d1.submit(new MetaCommand.Split(0, 1, Keys.utf8("c")), DEADLINE).join();
                assertThat(r.applied()).isTrue();
                assertThat(d1.current().version()).isEqualTo(2);
            }
            events.add("leave " + s.version());
        });
        group.member("l1").submit(MetaTransitionsTest.bootstrap(), DEADLINE).join();
        assertThat(events).containsExactly("enter 1", "leave 1", "enter 2", "leave 2");
    }

    @Test
    void aViewIsToldEachCommandInLogOrderAndOneGapForTheCommandsItWasHeldFrom() {
        InMemoryMetadataGroup group = new InMemoryMetadataGroup();
        Metadata d1 = group.member("d1");
        Metadata l1 = group.member("l1");
        List<Applied> told = new CopyOnWriteArrayList<>();
        d1.subscribeCommands(told::add);
        l1.submit(MetaTransitionsTest.bootstrap(), DEADLINE).join();
        MetaCommand split = new MetaCommand.Split(0, 1, Keys.utf8("c"));
        l1.submit(split, DEADLINE).join();
        assertThat(l1.submit(split, DEADLINE).join().applied()).as("refused: not told").isFalse();
        group.holdUpdates("d1", true);
        l1.submit(new MetaCommand.Split(1, 1, Keys.utf8("k")), DEADLINE).join();
        l1.submit(new MetaCommand.Split(2, 1, Keys.utf8("t")), DEADLINE).join();
        group.holdUpdates("d1", false);
        assertThat(told).hasSize(3);
        assertThat(told.get(0).command()).isInstanceOf(MetaCommand.Bootstrap.class);
        assertThat(told.get(1).command()).isEqualTo(split);
        assertThat(told.get(2).gap()).isTrue();
        assertThat(told.get(2).after().ranges()).hasSize(6);
        for (int i = 1; i < told.size(); i++) {
            assertThat(told.get(i).before()).isEqualTo(told.get(i - 1).after());
        }
        assertThat(d1.current()).isEqualTo(told.get(2).after());
    }

    private static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(30, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
