package org.autodisk.node.migration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.autodisk.core.Keys;
import org.autodisk.node.meta.InMemoryMetadataGroup;
import org.autodisk.node.meta.Member;
import org.autodisk.node.meta.MemberState;
import org.autodisk.node.meta.MetaBootstrap;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.Metadata;
import org.autodisk.node.meta.MigrationPhase;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.rangelog.WriteAheadLog;
import org.autodisk.node.store.LocalStore;
import org.autodisk.node.store.LocalStores;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A source whose deletion of its copy fails once (a full disk right after the cutover) deletes it again later and
 * ends the migration (a fault run, seed 782701626833: the migration stayed in clean-up for good, and the range got no
 * backup again).
 */
class SourceCleanUpTest {

    private static final Duration T = Duration.ofSeconds(5);
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stop() {
        timer.shutdownNow();
    }

    private final Metadata meta = new InMemoryMetadataGroup().member("d1");

    /** Range [-inf, m) of d1 moved to d2 and cut over: d1's clean-up is what is left of the migration. */
    private long cutOver() throws Exception {
        List<Member> members = List.of(new Member("d1", "data", "h1:1", MemberState.UP),
                new Member("d2", "data", "h2:1", MemberState.UP), new Member("l1", "log", "h3:1", MemberState.UP));
        submit(meta, MetaBootstrap.command("range", members, List.of("d1", "d2"), List.of(Keys.utf8("m")),
                id -> List.of("l1")));
        RangeDescriptor r = meta.current().ranges().stream().filter(x -> x.owner().equals("d1")).findFirst()
                .orElseThrow();
        long id = submit(meta, new MetaCommand.StartMigration(r.id(), r.epoch(), r.generation(), "d2", 0, "admin"))
                .migrations().get(0).id();
        submit(meta, new MetaCommand.MigrationProgress(id, MigrationPhase.COPYING, MigrationPhase.CATCHING_UP, 1, 1,
                "", 0));
        submit(meta, new MetaCommand.CutOver(id, List.of(), List.of()));
        return id;
    }

    private SourceCleanUp cleanUp(LocalStore store) {
        MigrationContext mc = new MigrationContext("d1", meta, null, null, store, null, new MigrationSettings(0,
                1 << 20, 1, 0, T, T, false), WriteAheadLog.direct(store), new MigrationTimes());
        return new SourceCleanUp(mc, timer);
    }

    @Test
    void theDeletedSpanIsCompactedBeforeTheMigrationEnds() throws Exception {
        long id = cutOver();
        RangeDescriptor r = meta.current().range(meta.current().migration(id).rangeId());
        List<String> reclaimed = new java.util.concurrent.CopyOnWriteArrayList<>();
        LocalStore store = new org.autodisk.node.store.ForwardingStore(LocalStores.inMemory()) {
            @Override
            public void reclaim(byte[] low, byte[] high) {
                reclaimed.add(Keys.render(low) + ".." + (high == null ? "" : Keys.render(high)) + " while "
                        + (meta.current().migration(id) == null ? "ended" : "under way"));
            }
        };
        SourceCleanUp cleanUp = cleanUp(store);
        await().atMost(T).until(() -> {
            tick(cleanUp, meta, id);
            return meta.current().migration(id) == null;
        });
        assertThat(reclaimed).containsExactly(Keys.render(r.low()) + ".." + Keys.render(r.high()) + " while under way");
    }

    @Test
    void aDeletionThatFailsIsTriedAgainAndTheMigrationEnds() throws Exception {
        long id = cutOver();
        RangeDescriptor r = meta.current().range(meta.current().migration(id).rangeId());

        AtomicBoolean full = new AtomicBoolean(true);
        AtomicInteger refused = new AtomicInteger();
        LocalStore store = LocalStores.failingWritesWhile(LocalStores.inMemory(),
                () -> full.get() && refused.incrementAndGet() > 0, () -> "disk full");
        SourceCleanUp cleanUp = cleanUp(store);
        await().atMost(T).until(() -> {
            tick(cleanUp, meta, id);
            return refused.get() > 0; // the deletion failed once
        });
        full.set(false);
        await().atMost(T).until(() -> {
            tick(cleanUp, meta, id);
            return meta.current().migration(id) == null;
        });
        assertThat(meta.current().range(r.id()).owner()).isEqualTo("d2");
    }

    /** One upkeep tick of the clean-up, as the node's upkeep makes it (which logs a failure and goes on). */
    private static void tick(SourceCleanUp cleanUp, Metadata meta, long id) {
        MetaState s = meta.current();
        try {
            if (s.migration(id) != null) {
                cleanUp.consider(s, s.migration(id));
            }
        } catch (RuntimeException e) {
            // the upkeep logs it and goes on
        }
    }

    private static MetaState submit(Metadata meta, MetaCommand c) throws Exception {
        assertThat(meta.submit(c, T).get().applied()).as(c.toString()).isTrue();
        return meta.current();
    }
}
