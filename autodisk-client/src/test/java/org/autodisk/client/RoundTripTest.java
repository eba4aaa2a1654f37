package org.autodisk.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.autodisk.core.cluster.ClusterStatus;
import org.junit.jupiter.api.Test;

class RoundTripTest extends FakeNodeTest {

    @Override
    protected AutoDiskClient.Builder configure(AutoDiskClient.Builder builder) {
        return builder.clientId("round-trip");
    }

    @Test
    void handshakeReportsTheNodeAndSendsTheClientId() {
        assertThat(client.connectedNode()).isEqualTo("node-1");
        assertThat(client.connectedAddress()).isEqualTo(node.address());
        assertThat(node.clientIds()).containsExactly("round-trip");
    }

    @Test
    void bytesRoundTrip() {
        byte[] key = {0, (byte) 0xFF, 7};
        byte[] value = {1, 2, 3, 0};

        client.insert(key, value);

        assertThat(client.search(key)).hasValueSatisfying(v -> assertThat(v).containsExactly(value));
        assertThat(client.delete(key)).isTrue();
        assertThat(client.delete(key)).isFalse();
        assertThat(client.search(key)).isEmpty();
    }

    @Test
    void emptyValueIsAValue() {
        client.insert("empty", new byte[0]);

        assertThat(client.search("empty")).hasValueSatisfying(v -> assertThat(v).isEmpty());
    }

    @Test
    void stringOverloadsUseUtf8() {
        client.insert("grüße", "hallo wörld");
        client.insert("bytes", "v".getBytes(StandardCharsets.UTF_8));

        assertThat(node.contents()).containsEntry("grüße", "hallo wörld").containsEntry("bytes", "v");
        assertThat(client.search("grüße").map(v -> new String(v, StandardCharsets.UTF_8))).contains("hallo wörld");
        List<StreamEntry> all = client.traverse("", null, 10);
        assertThat(all).extracting(StreamEntry::keyString).containsExactly("bytes", "grüße");
        assertThat(all.get(1).valueString()).isEqualTo("hallo wörld");
        assertThat(client.delete("bytes")).isTrue();
        assertThat(client.search("bytes")).isEmpty();
    }

    @Test
    void traverseHonoursBoundsAndLimit() {
        for (String k : List.of("a", "b", "c", "d", "e")) {
            node.put(k, k.toUpperCase());
        }

        assertThat(client.traverse("b", "d", 10)).containsExactly(StreamEntry.of("b", "B"), StreamEntry.of("c", "C"));
        assertThat(client.traverse((String) null, null, 2))
                .extracting(StreamEntry::keyString)
                .containsExactly("a", "b");
        assertThat(client.traverse(new byte[0], null, 100)).hasSize(5);
        assertThat(client.traverse("c", null, 100)).extracting(StreamEntry::keyString).containsExactly("c", "d", "e");
    }

    @Test
    void statusParsesTheClusterMap() {
        node.put("x", "y");

        ClusterStatus status = client.status();

        assertThat(status.reportedBy()).isEqualTo("node-1");
        assertThat(status.mapVersion()).isEqualTo(3);
        assertThat(status.nodes()).singleElement().satisfies(n -> {
            assertThat(n.address()).isEqualTo(node.address());
            assertThat(n.streamCount()).isEqualTo(1);
        });
        assertThat(status.ranges()).singleElement().satisfies(r -> assertThat(r.high()).isNull());
    }

    @Test
    void asyncOperationsComplete() {
        AsyncAutoDiskClient async = client.async();

        async.insert("k", "v").join();

        assertThat(async.search("k").join().map(String::new)).contains("v");
        assertThat(async.traverse("", null, 5).join()).containsExactly(StreamEntry.of("k", "v"));
        assertThat(async.status().join().reportedBy()).isEqualTo("node-1");
        assertThat(async.delete("k").join()).isTrue();
        assertThat(async.search("k").join()).isEqualTo(Optional.empty());
    }

    @Test
    void aClosedClientRejectsRequests() {
        client.close();

        assertThatThrownBy(() -> client.search("k"))
                .isInstanceOf(NodeUnavailableException.class)
                .hasMessageContaining("closed");
    }
}
