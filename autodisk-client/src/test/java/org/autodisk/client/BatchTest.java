package org.autodisk.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.autodisk.core.protocol.Opcode;
import org.junit.jupiter.api.Test;

class BatchTest extends FakeNodeTest {

    @Test
    void insertsEveryEntry() {
        List<StreamEntry> batch = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            batch.add(StreamEntry.of("key-" + i, "value-" + i));
        }

        client.insertBatch(batch);

        assertThat(node.contents()).hasSize(500).containsEntry("key-499", "value-499");
        assertThat(node.count(Opcode.INSERT)).isEqualTo(500);
    }

    @Test
    void emptyBatchIsANoOp() {
        client.insertBatch(List.of());

        assertThat(node.count(Opcode.INSERT)).isZero();
    }

    @Test
    void partialFailureListsTheFailedKeysAndStoresTheRest() {
        node.rejectInsertsWhere(k -> k.startsWith("bad"));
        List<StreamEntry> batch = List.of(StreamEntry.of("good-1", "1"), StreamEntry.of("bad-1", "2"),
                StreamEntry.of("good-2", "3"), StreamEntry.of("bad-2", "4"));

        assertThatThrownBy(() -> client.insertBatch(batch))
                .isInstanceOfSatisfying(BatchInsertException.class, e -> {
                    assertThat(e.batchSize()).isEqualTo(4);
                    assertThat(e.failedKeys()).extracting(k -> new String(k, StandardCharsets.UTF_8))
                            .containsExactly("bad-1", "bad-2");
                    assertThat(e.failures()).allSatisfy(f -> assertThat(f.cause())
                            .isInstanceOf(InvalidRequestException.class)
                            .hasMessageContaining("on purpose")
                            .hasMessageContaining(f.keyString())).hasSize(2);
                    assertThat(e).hasMessageStartingWith("2 of 4 inserts failed");
                })
                .isInstanceOf(AutoDiskException.class);
        assertThat(node.contents()).containsOnlyKeys("good-1", "good-2");
    }

    @Test
    void asyncBatchFailsWithTheBareBatchException() {
        node.rejectInsertsWhere(k -> true);

        CompletableFuture<Throwable> seen = client.async().insertBatch(List.of(StreamEntry.of("a", "b")))
                .handle((ok, error) -> error);

        assertThat(seen.join()).isInstanceOf(BatchInsertException.class);
    }
}
