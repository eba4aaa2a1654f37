package org.autodisk.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.autodisk.core.protocol.Opcode;
import org.autodisk.core.protocol.Status;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class FailoverTest {

    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : open.reversed()) {
            c.close();
        }
    }

    private FakeNode node(String id) {
        FakeNode n = FakeNode.start(id);
        open.add(n);
        return n;
    }

    /** A node that refuses every request for its role, as a log node refuses stream requests. */
    private FakeNode logNode() {
        FakeNode n = node("l1");
        n.answerWith(Status.WRONG_ROLE, "node l1 is a log node and does not serve INSERT; the data nodes do: d1");
        return n;
    }

    private AutoDiskClient client(AutoDiskClient.Builder builder) {
        AutoDiskClient c = builder.build();
        open.add(c);
        return c;
    }

    private static String deadAddress() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return "127.0.0.1:" + s.getLocalPort();
        }
    }

    @Test
    void buildSkipsASeedThatIsDown() throws IOException {
        FakeNode live = node("node-2");

        AutoDiskClient c = client(AutoDiskClient.builder().seeds(deadAddress(), live.address()));

        assertThat(c.connectedNode()).isEqualTo("node-2");
        c.insert("k", "v");
        assertThat(live.contents()).containsEntry("k", "v");
    }

    @Test
    void aRequestRefusedForTheNodesRoleGoesToAnotherSeedAndStaysThere() {
        FakeNode log = logNode();
        FakeNode data = node("d1");

        AutoDiskClient c = client(AutoDiskClient.builder().seeds(log.address(), data.address()));
        assertThat(c.connectedNode()).isEqualTo("l1");
        c.insert("k", "v");

        assertThat(data.contents()).containsEntry("k", "v");
        assertThat(c.connectedNode()).isEqualTo("d1");
        c.insert("k2", "v2");
        assertThat(data.contents()).containsEntry("k2", "v2");
    }

    @Test
    void aRequestRefusedForTheNodesRoleFailsWhenThereIsNoOtherSeed() {
        FakeNode log = logNode();

        AutoDiskClient c = client(AutoDiskClient.builder().seeds(log.address()));

        assertThatThrownBy(() -> c.insert("k", "v")).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("log node and does not serve INSERT")
                .satisfies(e -> assertThat(((AutoDiskException) e).status()).isEqualTo(Status.WRONG_ROLE));
    }

    @Test
    void buildListsEverySeedWhenNoneIsReachable() throws IOException {
        String a = deadAddress();
        String b = deadAddress();

        assertThatThrownBy(() -> AutoDiskClient.builder().seeds(a, b).build())
                .isInstanceOf(NodeUnavailableException.class)
                .hasMessageContaining(a)
                .hasMessageContaining(b)
                .satisfies(e -> assertThat(e.getSuppressed()).hasSize(1));
    }

    @Test
    void badSeedSyntaxNamesTheSeed() {
        assertThatThrownBy(() -> AutoDiskClient.builder().seeds("localhost:7400", "node-b"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'node-b'");
        assertThatThrownBy(() -> AutoDiskClient.builder().seeds("host:http"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'host:http'");
        assertThatThrownBy(() -> AutoDiskClient.builder().seeds("host:70000"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AutoDiskClient.builder().build()).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void versionMismatchFailsTheBuild() {
        FakeNode old = node("old-node");
        old.mode(FakeNode.Mode.OLD_VERSION);

        assertThatThrownBy(() -> AutoDiskClient.builder().seeds(old.address()).build())
                .isInstanceOf(ProtocolVersionException.class)
                .hasMessageContaining(FakeNode.OLD_VERSION_MESSAGE)
                .satisfies(e -> assertThat(((AutoDiskException) e).status()).isEqualTo(Status.UNSUPPORTED_VERSION))
                .cause()
                .isInstanceOf(ProtocolVersionException.class)
                .hasMessage(FakeNode.OLD_VERSION_MESSAGE);
    }

    @Test
    void movesToTheNextSeedWhenTheConnectedNodeDies() {
        FakeNode first = node("node-1");
        FakeNode second = node("node-2");
        second.put("k", "from-2");
        AutoDiskClient c = client(AutoDiskClient.builder().seeds(first.address(), second.address()));
        assertThat(c.connectedNode()).isEqualTo("node-1");

        first.close();

        assertThat(c.search("k").map(String::new)).contains("from-2");
        assertThat(c.connectedNode()).isEqualTo("node-2");
        assertThat(c.connectedAddress()).isEqualTo(second.address());
    }

    @Test
    void idempotentRequestLostInFlightIsSentOnceMoreOnTheNextSeed() {
        FakeNode first = node("node-1");
        FakeNode second = node("node-2");
        second.put("k", "from-2");
        AutoDiskClient c = client(AutoDiskClient.builder().seeds(first.address(), second.address()));
        first.mode(FakeNode.Mode.CLOSE);

        assertThat(c.search("k").map(String::new)).contains("from-2");
        assertThat(first.count(Opcode.SEARCH)).isEqualTo(1);
        assertThat(second.count(Opcode.SEARCH)).isEqualTo(1);
    }

    @Test
    void aWriteLostInFlightIsNotSentAgainAndItsOutcomeIsUnknown() {
        FakeNode first = node("node-1");
        FakeNode second = node("node-2");
        AutoDiskClient c = client(AutoDiskClient.builder().seeds(first.address(), second.address()));
        first.mode(FakeNode.Mode.CLOSE);

        assertThatThrownBy(() -> c.delete("k"))
                .isInstanceOf(OutcomeUnknownException.class)
                .hasMessageContaining("node-1")
                .hasMessageContaining("DELETE")
                .hasMessageContaining("may or may not have been carried out");
        assertThat(second.count(Opcode.DELETE)).as("sent to no other seed").isZero();
        second.mode(FakeNode.Mode.CLOSE);
        assertThatThrownBy(() -> c.insert("k", "v")).isInstanceOf(OutcomeUnknownException.class)
                .hasMessageContaining("INSERT");
        assertThat(first.count(Opcode.INSERT) + second.count(Opcode.INSERT)).as("sent once").isEqualTo(1);
    }

    @Test
    void aRequestLostTwiceFails() {
        FakeNode first = node("node-1");
        FakeNode second = node("node-2");
        AutoDiskClient c = client(AutoDiskClient.builder().seeds(first.address(), second.address()));
        first.mode(FakeNode.Mode.CLOSE);
        second.mode(FakeNode.Mode.CLOSE);

        assertThatThrownBy(() -> c.search("k")).isInstanceOf(NodeUnavailableException.class);
        assertThat(first.count(Opcode.SEARCH) + second.count(Opcode.SEARCH)).isEqualTo(2);
    }

    @Test
    void requestTimeout() {
        FakeNode silent = node("node-1");
        silent.mode(FakeNode.Mode.SILENT);
        AutoDiskClient c = client(AutoDiskClient.builder().seeds(silent.address())
                .requestTimeout(Duration.ofMillis(200)));

        assertThatThrownBy(() -> c.search("k"))
                .isInstanceOf(RequestTimeoutException.class)
                .hasMessageContaining("node-1")
                .hasMessageContaining("SEARCH")
                .hasMessageContaining("200 ms")
                .satisfies(e -> assertThat(((AutoDiskException) e).status()).isNull());
        // a retry would be written before the failure reached the caller; a later request on the same connection
        // arrives after it, so once that one has arrived a retry would have been counted
        c.async().delete("marker");
        await().until(() -> silent.count(Opcode.DELETE) == 1);
        assertThat(silent.count(Opcode.SEARCH)).as("a timed-out request is not retried").isEqualTo(1);
    }
}
