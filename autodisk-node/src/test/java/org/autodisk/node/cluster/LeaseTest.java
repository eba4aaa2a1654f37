package org.autodisk.node.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.autodisk.core.Keys;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.InsertRequest;
import org.autodisk.core.protocol.KeyRequest;
import org.autodisk.core.protocol.Opcode;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.InMemoryCluster;
import org.autodisk.node.meta.MemberState;
import org.autodisk.node.meta.RangeState;
import org.junit.jupiter.api.Test;

/**
 * The owner's lease (in-memory cluster, three data nodes, two log nodes): an owner cut off from every other node and
 * from the metadata goes on answering reads from its store while its lease lasts, and its range fails over to its
 * backup meanwhile; the backup serves only once that lease has run out, so no read the old owner answers begins
 * after the new owner acknowledged a write (each key a linearizable register) — also when the partition heals while the
 * backup takes the range over.
 */
class LeaseTest {

    private static final Map<String, Object> CONFIG = Map.of("wal.multiplicity", 2, "failure.suspect-ms", 400,
            "failure.heartbeat-ms", 100, "lease.ms", 2000, "lease.margin-ms", 200, "forward.timeout-ms", 3000,
            "metadata.request-timeout-ms", 3000);
    private static final List<String> OTHERS = List.of("d2", "d3", "l1", "l2");

    /** One read the cut-off owner answered: when it was asked, and what it said. */
    private record Read(long askedAt, Status status, String value) {
    }

    @Test
    void aCutOffOwnerAnswersNoReadThatBeginsAfterItsSuccessorAcknowledgedAWrite() throws Exception {
        readsAcrossAFailover(false);
    }

    /** The partition heals while the backup takes the range over and waits out the lease: nothing changes. */
    @Test
    void aPartitionHealingWhileTheBackupTakesOverChangesNothing() throws Exception {
        readsAcrossAFailover(true);
    }

    private void readsAcrossAFailover(boolean healDuringTakeover) throws Exception {
        try (InMemoryCluster c = new InMemoryCluster(3, 2, CONFIG)) {
            byte[] key = {0x10, 1};
            assertThat(c.node(0).metadata().current().rangeOf(key).owner()).isEqualTo("d1");
            assertThat(status(insert(c, 0, key, "v1"))).isEqualTo(Status.OK);
            assertThat(read(c, key).value()).isEqualTo("v1");

            cutOff(c, true);
            long cutAt = System.nanoTime();
            List<Read> reads = new CopyOnWriteArrayList<>();
            AtomicBoolean stop = new AtomicBoolean();
            Thread reader = Thread.ofPlatform().start(() -> {
                while (!stop.get()) {
                    reads.add(read(c, key));
                }
            });
            if (healDuringTakeover) {
                await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(5)).until(() -> c.node(1)
                        .metadata().current().rangeOf(key).state() == RangeState.RECOVERING);
                cutOff(c, false);
            }
            AtomicLong ackedAt = new AtomicLong();
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20)).until(() -> {
                Frame r = insert(c, 1, key, "v2");
                if (status(r) == Status.OK) {
                    ackedAt.set(System.nanoTime());
                    return true;
                }
                return false;
            });
            await().atMost(Duration.ofSeconds(30)).until(() -> System.nanoTime() - ackedAt.get()
                    > TimeUnit.SECONDS.toNanos(3) && !reads.isEmpty() && reads.get(reads.size() - 1).askedAt()
                    > ackedAt.get());
            stop.set(true);
            reader.join();

            assertThat(c.node(1).metadata().current().member("d1").state()).isIn(MemberState.FAILED,
                    healDuringTakeover ? MemberState.UP : MemberState.FAILED);
            assertThat(c.node(1).metadata().current().rangeOf(key).owner()).isEqualTo("d2");
            assertThat(reads).as("the cut-off owner still answered from its lease after it was cut off")
                    .anyMatch(r -> r.askedAt() > cutAt && "v1".equals(r.value()));
            assertThat(reads).as("no read that began after v2 was acknowledged returned v1")
                    .filteredOn(r -> r.askedAt() > ackedAt.get()).noneMatch(r -> "v1".equals(r.value()));
        }
    }

    /** Cuts d1 off from every node and from the metadata (clients still reach it), or joins it again. */
    private static void cutOff(InMemoryCluster c, boolean cut) {
        c.metadata().holdUpdates("d1", cut);
        for (int i = 1; i <= OTHERS.size(); i++) {
            c.peers(i).setUnreachable("d1", cut);
            c.peers(0).setUnreachable(OTHERS.get(i - 1), cut);
        }
    }

    private static Frame insert(InMemoryCluster c, int node, byte[] key, String value) {
        return c.call(node, Frame.request(Opcode.INSERT, 1, new InsertRequest(key, Keys.utf8(value)).encode()))
                .join();
    }

    private static Read read(InMemoryCluster c, byte[] key) {
        long at = System.nanoTime();
        Frame r = c.call(0, Frame.request(Opcode.SEARCH, 1, new KeyRequest(key).encode())).join();
        Status s = status(r);
        byte[] v = s == Status.OK ? Responses.parseSearch(r.body()) : null;
        return new Read(at, s, v == null ? null : new String(v));
    }

    private static Status status(Frame r) {
        return Responses.status(r.body());
    }
}
