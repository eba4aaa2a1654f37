package org.autodisk.node.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.client.InvalidRequestException;
import org.autodisk.client.StreamEntry;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.Hello;
import org.autodisk.core.protocol.InsertRequest;
import org.autodisk.core.protocol.KeyRequest;
import org.autodisk.core.protocol.Opcode;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.core.protocol.TraverseRequest;
import org.autodisk.node.MiniCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Bad input sent as raw frames, past the client library's own checks: each gets a specific error, the node
 * keeps serving others and nothing stored changes.
 */
class BadInputTest {

    private static MiniCluster cluster;
    private static AutoDiskClient good;
    private static List<StreamEntry> before;

    @BeforeAll
    static void start() {
        cluster = MiniCluster.start(2, null, Map.of("limits.max-value-bytes", 1000));
        good = cluster.clientOf(1);
        for (int i = 0; i < 40; i++) {
            good.insert(new byte[] {(byte) (i * 6), 'k'}, ("v" + i).getBytes(StandardCharsets.UTF_8));
        }
        before = good.traverse(new byte[0], null, 1000);
    }

    @AfterAll
    static void stop() {
        assertThat(good.traverse(new byte[0], null, 1000)).as("stored data unchanged").isEqualTo(before);
        cluster.close();
    }

    private static Frame ask(RawConnection c, Frame request) throws Exception {
        c.send(request);
        Frame reply = c.read();
        assertThat(reply.requestId()).isEqualTo(request.requestId());
        return reply;
    }

    private static void assertError(Frame reply, Status status, String text) {
        assertThat(Responses.status(reply.body())).isEqualTo(status);
        assertThat(Responses.errorMessage(reply.body())).contains(text);
    }

    @Test
    void emptyAndOverlongKeysAreRefusedNamingTheLimit() throws Exception {
        try (RawConnection c = RawConnection.handshaken(cluster.address(0))) {
            assertError(ask(c, Frame.request(Opcode.INSERT, 2, new InsertRequest(new byte[0], new byte[1]).encode())),
                    Status.INVALID_ARGUMENT, "keys must be 1..1024 bytes");
            assertError(ask(c, Frame.request(Opcode.SEARCH, 3, new KeyRequest(new byte[1025]).encode())),
                    Status.INVALID_ARGUMENT, "key is 1025 bytes: keys must be 1..1024 bytes");
            assertError(ask(c, Frame.request(Opcode.DELETE, 4, new KeyRequest(new byte[0]).encode())),
                    Status.INVALID_ARGUMENT, "key is empty");
        }
    }

    @Test
    void badSplitKeysAreRefusedAndNoRangeChanges() throws Exception {
        long version = good.admin().ranges().version();
        try (RawConnection c = RawConnection.handshaken(cluster.address(0))) {
            assertError(ask(c, Frame.request(Opcode.SPLIT, 20, new KeyRequest(new byte[1025]).encode())),
                    Status.INVALID_ARGUMENT, "key is 1025 bytes");
            assertError(ask(c, Frame.request(Opcode.SPLIT, 21, new KeyRequest(new byte[0]).encode())),
                    Status.INVALID_ARGUMENT, "key is empty");
            assertError(ask(c, Frame.request(Opcode.SPLIT, 22, new byte[] {0, 9, 'a'})), Status.MALFORMED,
                    "truncated body");
            byte[] boundary = good.admin().ranges().ranges().get(1).low();
            assertError(ask(c, Frame.request(Opcode.SPLIT, 23, new KeyRequest(boundary).encode())),
                    Status.INVALID_ARGUMENT, "starts already");
        }
        assertThat(good.admin().ranges().version()).isEqualTo(version);
    }

    @Test
    void oversizeValueIsRefusedNamingTheLimitAndTheConnectionGoesOn() throws Exception {
        try (RawConnection c = RawConnection.handshaken(cluster.address(0))) {
            byte[] key = {(byte) 200, 'x'};
            assertError(ask(c, Frame.request(Opcode.INSERT, 5, new InsertRequest(key, new byte[1001]).encode())),
                    Status.INVALID_ARGUMENT, "limits.max-value-bytes) is 1000 bytes");
            Frame huge = Frame.request(Opcode.INSERT, 6, new InsertRequest(key, new byte[200_000]).encode());
            assertError(ask(c, huge), Status.FRAME_TOO_LARGE, "exceeds the limit");
            Frame ok = ask(c, Frame.request(Opcode.SEARCH, 7, new KeyRequest(new byte[] {0, 'k'}).encode()));
            assertThat(Responses.parseSearch(ok.body())).isEqualTo("v0".getBytes(StandardCharsets.UTF_8));
            assertThat(cluster.node(1).store().get(key)).isNull();
        }
    }

    @Test
    void unknownOpcodeAndMalformedBodiesGetSpecificErrors() throws Exception {
        try (RawConnection c = RawConnection.handshaken(cluster.address(1))) {
            assertError(ask(c, new Frame(1, 40, 0, 0, 8, new byte[3])), Status.UNKNOWN_OPCODE, "opcode 40");
            assertError(ask(c, new Frame(1, 99, 0, 0, 8, new byte[3])), Status.NOT_PERMITTED,
                    "op#99 is a node-to-node operation");
            assertError(ask(c, Frame.request(Opcode.INSERT, 9, new byte[] {0, 5, 'a'})), Status.MALFORMED,
                    "truncated body: key");
            byte[] trailing = new byte[] {0, 1, 'a', 0, 0, 0, 0, 42};
            assertError(ask(c, Frame.request(Opcode.INSERT, 10, trailing)), Status.MALFORMED, "trailing");
            assertError(ask(c, Frame.request(Opcode.TRAVERSE, 11, new TraverseRequest(new byte[0], null, 0)
                    .encode())), Status.INVALID_ARGUMENT, "limit must be at least 1");
            assertError(ask(c, Frame.request(Opcode.TRAVERSE, 12, new TraverseRequest("b".getBytes(
                    StandardCharsets.UTF_8), "a".getBytes(StandardCharsets.UTF_8), 5).encode())),
                    Status.INVALID_ARGUMENT, "must sort before");
        }
    }

    @Test
    void truncatedFrameThenDisconnectLeavesTheNodeServing() throws Exception {
        try (RawConnection c = RawConnection.handshaken(cluster.address(0))) {
            byte[] body = new InsertRequest(new byte[] {1, 'z'}, new byte[50]).encode();
            c.writeRaw(RawConnection.header(body.length, 1, Opcode.INSERT.code(), 0, 13));
            c.writeRaw(java.util.Arrays.copyOf(body, 10));
        }
        assertThat(good.search(new byte[] {1, 'z'})).isEmpty();
        assertThat(good.search(new byte[] {6, 'k'})).isPresent();
    }

    @Test
    void garbageGetsAnErrorAndTheConnectionIsClosed() throws Exception {
        try (RawConnection c = RawConnection.handshaken(cluster.address(0))) {
            c.writeRaw("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            Frame reply = c.read();
            assertError(reply, Status.MALFORMED, "garbage");
            assertThat(c.closedByPeer()).isTrue();
        }
        assertThat(good.search(new byte[] {6, 'k'})).isPresent();
    }

    @Test
    void handshakeIsRequiredAndAnotherProtocolVersionIsRefused() throws Exception {
        try (RawConnection c = new RawConnection(cluster.address(0))) {
            c.send(Frame.request(Opcode.SEARCH, 1, new KeyRequest(new byte[] {1}).encode()));
            assertError(c.read(), Status.HANDSHAKE_REQUIRED, "must be HELLO");
            assertThat(c.closedByPeer()).isTrue();
        }
        try (RawConnection c = new RawConnection(cluster.address(0))) {
            c.send(new Frame(2, Opcode.HELLO.code(), 0, 0, 1, new Hello(2, Hello.PeerKind.CLIENT, "future").encode()));
            assertError(c.read(), Status.UNSUPPORTED_VERSION, "speaks protocol version 2; node d1 speaks version 1");
            assertThat(c.closedByPeer()).isTrue();
        }
    }

    @Test
    void clientLibraryChecksTheSameLimitsBeforeSending() {
        assertThatThrownBy(() -> good.insert(new byte[1025], new byte[1]))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("1..1024");
    }
}
