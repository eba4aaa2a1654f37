package org.autodisk.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Function;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/** Request bodies and the handshake. */
class MessagesTest {

    @Property
    void helloRoundTrips(@ForAll @IntRange(max = 255) int version, @ForAll Hello.PeerKind kind,
            @ForAll("text") String peerId) {
        Hello hello = new Hello(version, kind, peerId);

        assertThat(Hello.decode(hello.encode())).isEqualTo(hello);
    }

    @Test
    void helloKeepsNonAsciiPeerIds() {
        Hello hello = Hello.of(Hello.PeerKind.CLIENT, "klient-\u00fc\u00df-\ud83d\ude00");

        assertThat(Hello.decode(hello.encode())).isEqualTo(hello);
        assertThat(hello.version()).isEqualTo(Frame.PROTOCOL_VERSION);
    }

    @Test
    void helloStartsWithTheMagic() {
        byte[] body = Hello.of(Hello.PeerKind.NODE, "n1").encode();

        assertThat(new String(body, 0, 4, StandardCharsets.US_ASCII)).isEqualTo("ADSK");
    }

    @Test
    void helloWithBadMagicIsMalformed() {
        byte[] body = Hello.of(Hello.PeerKind.NODE, "n1").encode();
        body[0] = 'G';

        assertMalformed(() -> Hello.decode(body), "not an AutoDisk handshake", "bad magic 0x4744534b");
    }

    @Test
    void helloWithUnknownPeerKindIsMalformed() {
        byte[] body = Hello.of(Hello.PeerKind.NODE, "n1").encode();
        body[5] = 2;

        assertMalformed(() -> Hello.decode(body), "unknown peer kind 2");
    }

    @Test
    void truncatedHelloIsMalformedAndNamesTheField() {
        byte[] body = Hello.of(Hello.PeerKind.CLIENT, "peer").encode();

        assertEveryPrefixIsMalformed(body, Hello::decode);
        assertMalformed(() -> Hello.decode(Arrays.copyOf(body, 3)), "hello magic");
        assertMalformed(() -> Hello.decode(Arrays.copyOf(body, 4)), "hello version");
        assertMalformed(() -> Hello.decode(Arrays.copyOf(body, 5)), "hello peer kind");
        assertMalformed(() -> Hello.decode(Arrays.copyOf(body, 7)), "hello peer id length");
        assertMalformed(() -> Hello.decode(Arrays.copyOf(body, 10)), "hello peer id needs 4 bytes, 2 left");
    }

    @Test
    void helloCarriesANodesExtensionAndTheAnswerCarriesOneBack() {
        Hello hello = new Hello(Frame.PROTOCOL_VERSION, Hello.PeerKind.NODE, "d1", new byte[] {1, 2, 3});

        assertThat(Hello.decode(hello.encode())).isEqualTo(hello);
        assertThat(Hello.decode(Hello.of(Hello.PeerKind.CLIENT, "c").encode()).extension()).isEmpty();
        byte[] answer = Hello.answer("d2", new byte[] {9, 8});
        assertThat(Responses.status(answer)).isEqualTo(Status.OK);
        assertThat(Hello.answeringNode(answer)).isEqualTo("d2");
        assertThat(Hello.answerExtension(answer)).containsExactly(9, 8);
        assertThat(Hello.answerExtension(Hello.answer("d2", new byte[0]))).isEmpty();
    }

    @Test
    void rulesReloadRequestHasOneCodecAndRefusesUnknownScopes() {
        assertThat(RulesReloadRequest.decode(RulesReloadRequest.cluster().encode()))
                .isEqualTo(RulesReloadRequest.cluster());
        assertMalformed(() -> RulesReloadRequest.decode(new byte[] {1}), "scope 1 is unknown");
        assertMalformed(() -> RulesReloadRequest.decode(new byte[0]), "rules reload scope");
        assertMalformed(() -> RulesReloadRequest.decode(new byte[] {0, 0}), "trailing");
    }

    @Property
    void insertRequestRoundTrips(@ForAll @Size(min = 1, max = 1024) byte[] key,
            @ForAll @Size(max = 4096) byte[] value) {
        InsertRequest decoded = InsertRequest.decode(new InsertRequest(key, value).encode());

        assertThat(decoded.key()).isEqualTo(key);
        assertThat(decoded.value()).isEqualTo(value);
    }

    @Test
    void insertRequestLayoutIsKeyThenValue() {
        byte[] body = new InsertRequest(new byte[] {7}, new byte[] {8, 9}).encode();

        assertThat(body).containsExactly(0, 1, 7, 0, 0, 0, 2, 8, 9);
    }

    @Test
    void truncatedInsertRequestIsMalformedAndNamesTheField() {
        byte[] body = new InsertRequest(bytes("key"), bytes("value")).encode();

        assertEveryPrefixIsMalformed(body, InsertRequest::decode);
        assertMalformed(() -> InsertRequest.decode(new byte[0]), "truncated body", "key length");
        assertMalformed(() -> InsertRequest.decode(Arrays.copyOf(body, 4)), "key needs 3 bytes, 2 left");
        assertMalformed(() -> InsertRequest.decode(Arrays.copyOf(body, 7)), "value length");
        assertMalformed(() -> InsertRequest.decode(Arrays.copyOf(body, body.length - 1)),
                "value needs 5 bytes, 4 left");
    }

    @Test
    void insertRequestWithNegativeValueLengthIsMalformed() {
        byte[] body = {0, 1, 'k', (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xfe};

        assertMalformed(() -> InsertRequest.decode(body), "value length is negative (-2)");
    }

    @Test
    void insertRequestWithTrailingBytesIsMalformed() {
        byte[] body = withTrailing(new InsertRequest(bytes("k"), bytes("v")).encode(), 3);

        assertMalformed(() -> InsertRequest.decode(body), "INSERT request has 3 unexpected trailing bytes");
    }

    @Property
    void keyRequestRoundTrips(@ForAll @Size(min = 1, max = 1024) byte[] key) {
        assertThat(KeyRequest.decode(new KeyRequest(key).encode()).key()).isEqualTo(key);
    }

    @Test
    void truncatedOrOverlongKeyRequestIsMalformed() {
        byte[] body = new KeyRequest(bytes("some-key")).encode();

        assertEveryPrefixIsMalformed(body, KeyRequest::decode);
        assertMalformed(() -> KeyRequest.decode(Arrays.copyOf(body, 5)), "key needs 8 bytes, 3 left");
        assertMalformed(() -> KeyRequest.decode(withTrailing(body, 1)), "key request has 1 unexpected trailing");
    }

    @Test
    void keyLongerThanAShortByteStringCannotBeEncoded() {
        KeyRequest tooLong = new KeyRequest(new byte[0x10000]);

        assertThatThrownBy(tooLong::encode).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("65536 bytes exceeds 65535");
    }

    @Property
    void traverseRequestRoundTrips(@ForAll @Size(max = 1024) byte[] from, @ForAll boolean bounded,
            @ForAll @Size(max = 1024) byte[] to, @ForAll int limit) {
        TraverseRequest request = new TraverseRequest(from, bounded ? to : null, limit);

        TraverseRequest decoded = TraverseRequest.decode(request.encode());

        assertThat(decoded.from()).isEqualTo(from);
        assertThat(decoded.toExclusive()).isEqualTo(bounded ? to : null);
        assertThat(decoded.limit()).isEqualTo(limit);
    }

    @Test
    void traverseRequestWithoutEndKeyDecodesToNull() {
        byte[] body = new TraverseRequest(new byte[0], null, 10).encode();

        assertThat(body).containsExactly(0, 0, 0, 0, 0, 0, 10);
        TraverseRequest decoded = TraverseRequest.decode(body);
        assertThat(decoded.from()).isEmpty();
        assertThat(decoded.toExclusive()).isNull();
        assertThat(decoded.limit()).isEqualTo(10);
    }

    @Test
    void traverseRequestWithEmptyEndKeyIsNotUnbounded() {
        TraverseRequest decoded = TraverseRequest.decode(new TraverseRequest(bytes("a"), new byte[0], 1).encode());

        assertThat(decoded.toExclusive()).isNotNull().isEmpty();
    }

    @Test
    void truncatedTraverseRequestIsMalformedAndNamesTheField() {
        byte[] bounded = new TraverseRequest(bytes("a"), bytes("zz"), 5).encode();
        byte[] unbounded = new TraverseRequest(bytes("a"), null, 5).encode();

        assertEveryPrefixIsMalformed(bounded, TraverseRequest::decode);
        assertEveryPrefixIsMalformed(unbounded, TraverseRequest::decode);
        assertMalformed(() -> TraverseRequest.decode(Arrays.copyOf(bounded, 1)), "from key length");
        assertMalformed(() -> TraverseRequest.decode(Arrays.copyOf(bounded, 3)), "has-end flag");
        assertMalformed(() -> TraverseRequest.decode(Arrays.copyOf(bounded, 5)), "end key length");
        assertMalformed(() -> TraverseRequest.decode(Arrays.copyOf(bounded, 7)), "end key needs 2 bytes");
        assertMalformed(() -> TraverseRequest.decode(Arrays.copyOf(bounded, 8)), "limit needs 4 bytes, 0 left");
        assertMalformed(() -> TraverseRequest.decode(withTrailing(unbounded, 2)),
                "TRAVERSE request has 2 unexpected trailing bytes");
    }

    @Property
    void everyTruncationOfAnyInsertRequestIsMalformed(@ForAll @Size(min = 1, max = 40) byte[] key,
            @ForAll @Size(max = 40) byte[] value) {
        assertEveryPrefixIsMalformed(new InsertRequest(key, value).encode(), InsertRequest::decode);
    }

    @Test
    void frameRequestAndResponseHelpersKeepIdOpcodeAndTraceFlag() {
        Frame request = new Frame(1, Opcode.SEARCH.code(), Frame.FLAG_TRACE, 2, 99, new byte[] {1});

        Frame response = request.response(Responses.ok());
        Frame forwarded = Frame.request(Opcode.INSERT, 5, new byte[0]).forwarded(6, 3);

        assertThat(response.isResponse()).isTrue();
        assertThat(response.isTraced()).isTrue();
        assertThat(response.requestId()).isEqualTo(99);
        assertThat(response.op()).isEqualTo(Opcode.SEARCH);
        assertThat(response.hops()).isEqualTo(2);
        assertThat(forwarded.requestId()).isEqualTo(6);
        assertThat(forwarded.hops()).isEqualTo(3);
        assertThat(forwarded.isResponse()).isFalse();
        assertThat(forwarded.isTraced()).isFalse();
        assertThat(Opcode.fromCode(Opcode.RULES_RELOAD.code())).isEqualTo(Opcode.RULES_RELOAD);
        assertThat(Opcode.fromCode(Opcode.FIRST_PEER_CODE)).as("node-to-node codes are not client operations")
                .isNull();
        assertThat(Opcode.describe(Opcode.FIRST_PEER_CODE + 1)).isEqualTo("op#65");
        assertThat(Opcode.fromCode(0)).isNull();
        assertThat(Opcode.fromCode(256)).isNull();
        assertThat(Opcode.fromCode(-1)).isNull();
    }

    @Provide
    Arbitrary<String> text() {
        return Arbitraries.strings().withCharRange('\u0000', '\ud7ff').ofMaxLength(100);
    }

    static <T> void assertEveryPrefixIsMalformed(byte[] body, Function<byte[], T> decoder) {
        for (int cut = 0; cut < body.length; cut++) {
            byte[] prefix = Arrays.copyOf(body, cut);
            assertThatThrownBy(() -> decoder.apply(prefix)).as("body cut at %d of %d", cut, body.length)
                    .isInstanceOfSatisfying(ProtocolException.class,
                        e -> assertThat(e.status()).isEqualTo(Status.MALFORMED));
        }
    }

    static void assertMalformed(ThrowingCallable call, String... messageParts) {
        assertThatThrownBy(call).isInstanceOfSatisfying(ProtocolException.class, e -> {
            assertThat(e.status()).isEqualTo(Status.MALFORMED);
            assertThat(e.getMessage()).contains(messageParts);
        });
    }

    static byte[] withTrailing(byte[] body, int extra) {
        return ByteBuffer.allocate(body.length + extra).put(body).array();
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
