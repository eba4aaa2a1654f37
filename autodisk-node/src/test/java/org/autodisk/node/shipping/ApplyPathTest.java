package org.autodisk.node.shipping;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.autodisk.core.cluster.MetricNames;
import org.autodisk.core.protocol.Frame;
import org.autodisk.node.metrics.NodeMetrics;
import org.autodisk.node.peer.InMemoryPeerChannel;
import org.autodisk.node.store.ForwardingStore;
import org.autodisk.node.store.LocalStores;
import org.autodisk.node.wire.LogBatch;
import org.autodisk.node.wire.LogRecord;
import org.autodisk.node.wire.PeerResponses;
import org.junit.jupiter.api.Test;

/**
 * Where a durable group is applied: at once on the thread that saw the acknowledgement when the store need not
 * wait, on the apply thread when it would (a write stall), and in LSN order either way.
 */
class ApplyPathTest {

    /** An in-memory store that can be told to refuse applies without waiting, as a stalled RocksDB does. */
    private static final class StallableStore extends ForwardingStore {

        private final List<Long> appliedOrder = Collections.synchronizedList(new ArrayList<>());
        private final List<String> threads = Collections.synchronizedList(new ArrayList<>());
        volatile boolean stalled;

        StallableStore() {
            super(LocalStores.inMemory());
        }

        @Override
        public boolean[] applyAll(List<LogRecord> records) {
            threads.add(Thread.currentThread().getName());
            records.forEach(r -> appliedOrder.add(r.lsn()));
            return inner.applyAll(records);
        }

        @Override
        public boolean[] tryApplyAll(List<LogRecord> records) {
            return stalled ? null : applyAll(records);
        }

        @Override
        public boolean apply(LogRecord record) {
            return applyAll(List.of(record))[0];
        }
    }

    private final StallableStore store = new StallableStore();
    private final NodeMetrics metrics = new NodeMetrics("d1");
    private final InMemoryPeerChannel peers = new InMemoryPeerChannel(Map.of("l1", logNode()));

    private static BiConsumer<Frame, Consumer<Frame>> logNode() {
        return (request, reply) -> {
            List<LogRecord> records = LogBatch.decode(request.body(), 0).records();
            reply.accept(request.response(PeerResponses.lsnResult(records.get(records.size() - 1).lsn())));
        };
    }

    private void insert(WriteAheadLog wal, int i, List<Long> acknowledged) {
        byte[] key = ("k" + i).getBytes(StandardCharsets.UTF_8);
        wal.log(0, 1, LogRecord.PUT, key, key, 1, a -> acknowledged.add(a.record().lsn()), e -> { });
    }

    @Test
    void withoutAStallGroupsAreAppliedWhereTheAcknowledgementArrives() {
        List<Long> acknowledged = Collections.synchronizedList(new ArrayList<>());
        try (WriteAheadLog wal = WriteAheadLog.shipping("d1", List.of("l1"), peers, 1, 100, store, metrics)) {
            for (int i = 1; i <= 50; i++) {
                insert(wal, i, acknowledged);
            }
            await().until(() -> acknowledged.size() == 50);
            assertThat(metrics.snapshot().get(MetricNames.WAL_INLINE_APPLIES)).isPositive();
            assertThat(store.threads).noneMatch(t -> t.endsWith("-apply"));
        }
        assertThat(store.appliedOrder).isSorted().hasSize(50);
        assertThat(store.appliedLsn()).isEqualTo(50);
    }

    @Test
    void whileTheStoreWouldStallTheApplyThreadAppliesAndOrderIsKept() {
        List<Long> acknowledged = Collections.synchronizedList(new ArrayList<>());
        try (WriteAheadLog wal = WriteAheadLog.shipping("d1", List.of("l1"), peers, 1, 100, store, metrics)) {
            store.stalled = true;
            for (int i = 1; i <= 30; i++) {
                insert(wal, i, acknowledged);
            }
            await().until(() -> acknowledged.size() == 30);
            assertThat(metrics.snapshot().get(MetricNames.WAL_INLINE_APPLIES)).isZero();
            assertThat(store.threads).allMatch(t -> t.equals("d1-apply"));
            store.stalled = false;
            for (int i = 31; i <= 60; i++) {
                insert(wal, i, acknowledged);
            }
            await().until(() -> acknowledged.size() == 60);
        }
        assertThat(store.appliedOrder).isSorted().hasSize(60).doesNotHaveDuplicates();
        assertThat(acknowledged).isSorted();
        assertThat(store.count()).isEqualTo(60);
    }
}
