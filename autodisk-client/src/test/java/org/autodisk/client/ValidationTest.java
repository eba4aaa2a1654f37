package org.autodisk.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.autodisk.core.Limits;
import org.autodisk.core.protocol.Opcode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ValidationTest {

    private FakeNode node;
    private AutoDiskClient client;

    @BeforeEach
    void start() {
        node = FakeNode.start("node-1");
        client = AutoDiskClient.builder().seeds(node.address()).limits(new Limits(1024, 16)).build();
    }

    @AfterEach
    void stop() {
        client.close();
        assertThat(node.count(Opcode.INSERT) + node.count(Opcode.SEARCH) + node.count(Opcode.DELETE)
                + node.count(Opcode.TRAVERSE)).as("requests that reached the node").isZero();
        node.close();
    }

    @Test
    void emptyKey() {
        assertThatThrownBy(() -> client.insert(new byte[0], new byte[1]))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("key is empty: keys must be 1..1024 bytes");
        assertThatThrownBy(() -> client.search("")).isInstanceOf(InvalidRequestException.class);
        assertThatThrownBy(() -> client.delete(new byte[0])).isInstanceOf(InvalidRequestException.class);
    }

    @Test
    void keyOverTheLimit() {
        assertThatThrownBy(() -> client.search(new byte[1025]))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("key is 1025 bytes: keys must be 1..1024 bytes")
                .satisfies(e -> assertThat(((AutoDiskException) e).status()).isNull());
    }

    @Test
    void valueOverACustomLimit() {
        assertThatThrownBy(() -> client.insert("k", new byte[17]))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("value is 17 bytes: the limit (limits.max-value-bytes) is 16 bytes");
    }

    @Test
    void traverseLimitMustBePositive() {
        assertThatThrownBy(() -> client.traverse("a", null, 0))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("limit is 0");
    }

    @Test
    void traverseRangeMustNotBeEmpty() {
        assertThatThrownBy(() -> client.traverse("b", "a", 10))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("must sort strictly before toExclusive");
        assertThatThrownBy(() -> client.traverse("b", "b", 10)).isInstanceOf(InvalidRequestException.class);
        assertThatThrownBy(() -> client.traverse(new byte[0], new byte[0], 10))
                .isInstanceOf(InvalidRequestException.class);
        assertThatThrownBy(() -> client.traverseStream(new byte[] {2}, new byte[] {1}))
                .isInstanceOf(InvalidRequestException.class);
    }

    @Test
    void asyncValidationFailsTheFutureAtOnce() {
        CompletableFuture<Void> insert = client.async().insert(new byte[1025], new byte[0]);
        CompletableFuture<List<StreamEntry>> traverse = client.async().traverse("z", "a", 1);

        assertThat(insert).isCompletedExceptionally();
        assertThat(traverse).isCompletedExceptionally();
        assertThat(insert.exceptionNow()).isInstanceOf(InvalidRequestException.class);
        assertThat(traverse.exceptionNow()).isInstanceOf(InvalidRequestException.class);
    }

    @Test
    void batchWithOneBadEntrySendsNothing() {
        List<StreamEntry> batch = List.of(StreamEntry.of("a", "1"), new StreamEntry(new byte[0], new byte[0]));

        assertThatThrownBy(() -> client.insertBatch(batch))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("batch entry 1")
                .hasMessageContaining("key is empty");
    }
}
