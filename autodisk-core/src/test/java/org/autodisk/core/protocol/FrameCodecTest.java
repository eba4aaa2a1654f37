package org.autodisk.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.autodisk.core.Limits;
import org.junit.jupiter.api.Test;

class FrameCodecTest {

    private static final int MAX = 1024;

    @Test
    void encoderWritesLengthHeaderAndBody() {
        Frame frame = new Frame(1, Opcode.SEARCH.code(), Frame.FLAG_TRACE, 3, 0x0102030405060708L, new byte[] {9, 8});

        byte[] wire = encode(frame);

        ByteBuffer b = ByteBuffer.wrap(wire);
        assertThat(wire).hasSize(frame.wireBytes()).hasSize(4 + 12 + 2);
        assertThat(b.getInt()).isEqualTo(14);
        assertThat(b.get()).isEqualTo((byte) 1);
        assertThat(b.get()).isEqualTo((byte) Opcode.SEARCH.code());
        assertThat(b.get()).isEqualTo((byte) Frame.FLAG_TRACE);
        assertThat(b.get()).isEqualTo((byte) 3);
        assertThat(b.getLong()).isEqualTo(0x0102030405060708L);
        assertThat(b.get()).isEqualTo((byte) 9);
        assertThat(b.get()).isEqualTo((byte) 8);
    }

    @Property(tries = 200)
    void framesRoundTripThroughEncoderAndDecoder(@ForAll @IntRange(max = 255) int version,
            @ForAll @IntRange(max = 255) int opcode, @ForAll @IntRange(max = 255) int flags,
            @ForAll @IntRange(max = 255) int hops, @ForAll long requestId,
            @ForAll @Size(max = MAX - Frame.HEADER_BYTES) byte[] body) {
        Frame frame = new Frame(version, opcode, flags, hops, requestId, body);

        List<Object> decoded = decode(new FrameDecoder(MAX), encode(frame));

        assertFrames(decoded, frame);
    }

    @Test
    void frameSplitAtEveryOffsetDecodesTheSame() {
        Frame a = Frame.request(Opcode.INSERT, 77, new InsertRequest(bytes("k"), bytes("some value")).encode());
        Frame b = new Frame(1, Opcode.DELETE.code(), Frame.FLAG_RESPONSE, 2, -5, Responses.deleteResult(true));
        byte[] wire = concat(encode(a), encode(b));

        for (int cut = 0; cut <= wire.length; cut++) {
            List<Object> decoded = decode(new FrameDecoder(MAX), Arrays.copyOfRange(wire, 0, cut),
                    Arrays.copyOfRange(wire, cut, wire.length));
            assertFrames(decoded, a, b);
        }
    }

    @Test
    void frameFedByteByByteDecodesTheSame() {
        Frame frame = Frame.request(Opcode.TRAVERSE, Long.MAX_VALUE,
                new TraverseRequest(bytes("a"), bytes("z"), 100).encode());
        byte[] wire = encode(frame);

        byte[][] chunks = new byte[wire.length][];
        for (int i = 0; i < wire.length; i++) {
            chunks[i] = new byte[] {wire[i]};
        }

        assertFrames(decode(new FrameDecoder(MAX), chunks), frame);
    }

    @Test
    void severalFramesInOneBufferDecodeInOrder() {
        Frame a = Frame.request(Opcode.HELLO, 1, Hello.of(Hello.PeerKind.CLIENT, "cli").encode());
        Frame b = Frame.request(Opcode.SEARCH, 2, new KeyRequest(bytes("key")).encode());
        Frame c = Frame.request(Opcode.STATUS, 3, new byte[0]);

        List<Object> decoded = decode(new FrameDecoder(MAX), concat(encode(a), encode(b), encode(c)));

        assertFrames(decoded, a, b, c);
    }

    @Test
    void frameOfExactlyTheLimitIsAcceptedAndOneByteMoreIsNot() {
        Frame atLimit = Frame.request(Opcode.INSERT, 1, new byte[MAX - Frame.HEADER_BYTES]);
        Frame overLimit = Frame.request(Opcode.INSERT, 2, new byte[MAX - Frame.HEADER_BYTES + 1]);

        List<Object> decoded = decode(new FrameDecoder(MAX), concat(encode(atLimit), encode(overLimit)));

        assertThat(decoded).hasSize(2);
        assertFrames(decoded.subList(0, 1), atLimit);
        assertThat(decoded.get(1)).isEqualTo(new DecodeFailure(Status.FRAME_TOO_LARGE, 2, Opcode.INSERT.code(),
                "frame of 1025 bytes exceeds the limit of 1024 bytes (limits.max-frame-bytes)", false));
    }

    @Test
    void oversizeFrameIsReportedSkippedAndTheNextFrameDecodes() {
        Frame big = Frame.request(Opcode.INSERT, 42, new byte[5000]);
        Frame next = Frame.request(Opcode.SEARCH, 43, new KeyRequest(bytes("after")).encode());
        FrameDecoder decoder = new FrameDecoder(MAX);

        List<Object> decoded = decode(decoder, concat(encode(big), encode(next)));

        assertThat(decoded).hasSize(2);
        assertOversize(decoded.get(0), 42, Opcode.INSERT.code(), 5012);
        assertFrames(decoded.subList(1, 2), next);
        assertThat(decoder.isCorrupt()).isFalse();
    }

    @Test
    void oversizeBodySplitOverManyBuffersIsSkipped() {
        byte[] body = new byte[10_000];
        Arrays.fill(body, (byte) 0x55);
        Frame big = new Frame(1, Opcode.INSERT.code(), Frame.FLAG_TRACE, 0, 9, body);
        Frame next = Frame.request(Opcode.DELETE, 10, new KeyRequest(bytes("next")).encode());
        byte[] wire = concat(encode(big), encode(next), encode(big), encode(next));

        for (int chunk : new int[] {1, 7, 13, 100, 4096}) {
            List<Object> decoded = decode(new FrameDecoder(MAX), chunks(wire, chunk));

            assertThat(decoded).as("chunk size %d", chunk).hasSize(4);
            assertOversize(decoded.get(0), 9, Opcode.INSERT.code(), 10_012);
            assertFrames(decoded.subList(1, 2), next);
            assertOversize(decoded.get(2), 9, Opcode.INSERT.code(), 10_012);
            assertFrames(decoded.subList(3, 4), next);
        }
    }

    @Test
    void hugeDeclaredLengthFailsAfterTheHeaderWithoutWaitingForTheBody() {
        ByteBuf header = Unpooled.buffer(16).writeInt(Integer.MAX_VALUE).writeByte(1)
                .writeByte(Opcode.INSERT.code()).writeByte(0).writeByte(0).writeLong(1234L);
        FrameDecoder decoder = new FrameDecoder(Limits.DEFAULT.maxFrameBytes());
        EmbeddedChannel channel = new EmbeddedChannel(decoder);

        channel.writeInbound(header);

        Object failure = channel.readInbound();
        assertOversize(failure, 1234, Opcode.INSERT.code(), Integer.MAX_VALUE);
        assertThat(((DecodeFailure) failure).message()).contains(String.valueOf(Limits.DEFAULT.maxFrameBytes()));
        // a further megabyte of "body" is skipped, not buffered up and not mistaken for frames
        for (int i = 0; i < 16; i++) {
            channel.writeInbound(Unpooled.wrappedBuffer(new byte[64 * 1024]));
        }
        assertThat((Object) channel.readInbound()).isNull();
        assertThat(decoder.isCorrupt()).isFalse();
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void aFrameTheGateRefusesIsAnsweredFromItsHeaderAndItsBodySkippedUnread() {
        FrameDecoder decoder = new FrameDecoder(MAX);
        decoder.gate((version, opcode, flags) -> opcode >= Opcode.FIRST_PEER_CODE
                ? new FrameGate.Refusal(Status.NOT_PERMITTED, "op " + opcode + " is for nodes only") : null);
        byte[] body = new byte[MAX - Frame.HEADER_BYTES];
        Arrays.fill(body, (byte) 0x33);
        Frame refused = new Frame(1, Opcode.FIRST_PEER_CODE + 1, 0, 0, 77, body);
        Frame empty = new Frame(1, Opcode.FIRST_PEER_CODE, 0, 0, 78, new byte[0]);
        Frame next = Frame.request(Opcode.SEARCH, 79, new KeyRequest(bytes("k")).encode());
        byte[] wire = concat(encode(refused), encode(empty), encode(next));

        for (int chunk : new int[] {1, 5, 13, 4096}) {
            decoder = new FrameDecoder(MAX);
            decoder.gate((version, opcode, flags) -> opcode >= Opcode.FIRST_PEER_CODE
                    ? new FrameGate.Refusal(Status.NOT_PERMITTED, "op " + opcode + " is for nodes only") : null);
            List<Object> decoded = decode(decoder, chunks(wire, chunk));

            assertThat(decoded).as("chunk size %d", chunk).hasSize(3);
            assertThat(decoded.get(0)).isEqualTo(new DecodeFailure(Status.NOT_PERMITTED, 77,
                    Opcode.FIRST_PEER_CODE + 1, "op 65 is for nodes only", false));
            assertThat(decoded.get(1)).isEqualTo(new DecodeFailure(Status.NOT_PERMITTED, 78,
                    Opcode.FIRST_PEER_CODE, "op 64 is for nodes only", false));
            assertFrames(decoded.subList(2, 3), next);
            assertThat(decoder.isCorrupt()).isFalse();
        }
    }

    @Test
    void theGateAppliesFromTheNextFrameOn() {
        Frame peer = new Frame(1, Opcode.FIRST_PEER_CODE, 0, 0, 1, new byte[] {1});
        FrameDecoder decoder = new FrameDecoder(MAX);
        EmbeddedChannel channel = new EmbeddedChannel(decoder);

        channel.writeInbound(Unpooled.wrappedBuffer(encode(peer)));
        decoder.gate((version, opcode, flags) -> new FrameGate.Refusal(Status.NOT_PERMITTED, "no"));
        channel.writeInbound(Unpooled.wrappedBuffer(encode(peer)));

        assertThat((Object) channel.readInbound()).isInstanceOf(Frame.class);
        assertThat((Object) channel.readInbound()).isInstanceOf(DecodeFailure.class);
        assertThat(channel.finish()).isFalse();
    }

    @Property(tries = 100)
    void lengthBelowTheHeaderIsGarbageAndEverythingAfterIsDiscarded(
            @ForAll @IntRange(min = Integer.MIN_VALUE, max = Frame.HEADER_BYTES - 1) int length,
            @ForAll @Size(max = 200) byte[] rest) {
        Frame valid = Frame.request(Opcode.SEARCH, 5, new KeyRequest(bytes("k")).encode());
        byte[] lengthField = ByteBuffer.allocate(4).putInt(length).array();
        FrameDecoder decoder = new FrameDecoder(MAX);

        List<Object> decoded = decode(decoder, lengthField, rest, encode(valid), encode(valid));

        assertThat(decoded).containsExactly(new DecodeFailure(Status.MALFORMED, 0, 0, "garbage on the connection: "
                + "frame length " + length + " is below the 12-byte header", true));
        assertThat(decoder.isCorrupt()).isTrue();
    }

    @Test
    void garbageAfterAValidFrameIsReportedOnce() {
        Frame valid = Frame.request(Opcode.SEARCH, 5, new KeyRequest(bytes("k")).encode());
        byte[] garbage = {(byte) 0xde, (byte) 0xad, (byte) 0xbe, (byte) 0xef, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
        FrameDecoder decoder = new FrameDecoder(MAX);

        List<Object> decoded = decode(decoder, concat(encode(valid), garbage), encode(valid), garbage);

        assertThat(decoded).hasSize(2);
        assertFrames(decoded.subList(0, 1), valid);
        assertThat(decoded.get(1)).isInstanceOfSatisfying(DecodeFailure.class, f -> {
            assertThat(f.status()).isEqualTo(Status.MALFORMED);
            assertThat(f.connectionLost()).isTrue();
            assertThat(f.message()).contains("garbage", String.valueOf(0xdeadbeef));
        });
        assertThat(decoder.isCorrupt()).isTrue();
    }

    @Test
    void httpRequestLineIsGarbage() {
        // "GET " read as a length is 0x47455420, far over the limit: the version byte '/' gives it away
        byte[] http = "GET / HTTP/1.1\r\nHost: node-1\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        Frame valid = Frame.request(Opcode.SEARCH, 5, new KeyRequest(bytes("k")).encode());
        FrameDecoder decoder = new FrameDecoder(Limits.DEFAULT.maxFrameBytes());

        List<Object> decoded = decode(decoder, http, encode(valid));

        assertThat(decoded).hasSize(1);
        assertThat(decoded.get(0)).isInstanceOfSatisfying(DecodeFailure.class, f -> {
            assertThat(f.status()).isEqualTo(Status.MALFORMED);
            assertThat(f.connectionLost()).isTrue();
            assertThat(f.message()).contains("garbage", "declared length " + 0x47455420,
                    "version byte " + (int) '/');
        });
        assertThat(decoder.isCorrupt()).isTrue();
    }

    @Test
    void oversizeFrameOfAnotherVersionIsGarbageButAnOrdinaryOneIsNot() {
        Frame big = new Frame(Frame.PROTOCOL_VERSION + 1, Opcode.INSERT.code(), 0, 0, 8, new byte[MAX]);
        Frame small = new Frame(Frame.PROTOCOL_VERSION + 1, Opcode.INSERT.code(), 0, 0, 9, new byte[10]);
        FrameDecoder decoder = new FrameDecoder(MAX);

        List<Object> decoded = decode(decoder, encode(small), encode(big), encode(small));

        assertThat(decoded).hasSize(2);
        assertFrames(decoded.subList(0, 1), small);
        assertThat(decoded.get(1)).isInstanceOfSatisfying(DecodeFailure.class, f -> {
            assertThat(f.status()).isEqualTo(Status.MALFORMED);
            assertThat(f.connectionLost()).isTrue();
            assertThat(f.message()).contains("version byte " + (Frame.PROTOCOL_VERSION + 1));
        });
        assertThat(decoder.isCorrupt()).isTrue();
    }

    @Test
    void truncatedFrameYieldsNothingWhenTheChannelCloses() {
        byte[] wire = encode(Frame.request(Opcode.INSERT, 3, new InsertRequest(bytes("k"), bytes("v")).encode()));

        for (int cut = 0; cut < wire.length; cut++) {
            FrameDecoder decoder = new FrameDecoder(MAX);
            assertThat(decode(decoder, Arrays.copyOf(wire, cut))).as("cut at %d", cut).isEmpty();
            assertThat(decoder.isCorrupt()).isFalse();
        }
    }

    @Test
    void frameOfAnotherProtocolVersionDecodesWithItsVersion() {
        Frame future = new Frame(Frame.PROTOCOL_VERSION + 1, Opcode.HELLO.code(), 0, 0, 1,
                new Hello(Frame.PROTOCOL_VERSION + 1, Hello.PeerKind.NODE, "n9").encode());
        Frame unknownOpcode = new Frame(0, 200, 0, 0, 2, new byte[] {1});

        List<Object> decoded = decode(new FrameDecoder(MAX), concat(encode(future), encode(unknownOpcode)));

        assertFrames(decoded, future, unknownOpcode);
        Frame first = (Frame) decoded.get(0);
        assertThat(first.version()).isEqualTo(2);
        assertThat(Hello.decode(first.body()).version()).isEqualTo(2);
        assertThat(((Frame) decoded.get(1)).op()).isNull();
    }

    private static void assertOversize(Object actual, long requestId, int opcode, int length) {
        assertThat(actual).isInstanceOfSatisfying(DecodeFailure.class, f -> {
            assertThat(f.status()).isEqualTo(Status.FRAME_TOO_LARGE);
            assertThat(f.requestId()).isEqualTo(requestId);
            assertThat(f.opcode()).isEqualTo(opcode);
            assertThat(f.connectionLost()).isFalse();
            assertThat(f.message()).contains("frame of " + length + " bytes", "exceeds the limit of");
        });
    }

    private static void assertFrames(List<Object> actual, Frame... expected) {
        assertThat(actual).hasSize(expected.length);
        for (int i = 0; i < expected.length; i++) {
            assertThat(actual.get(i)).as("frame %d", i).isInstanceOf(Frame.class)
                    .usingRecursiveComparison().isEqualTo(expected[i]);
        }
    }

    static byte[] encode(Frame... frames) {
        EmbeddedChannel channel = new EmbeddedChannel(FrameEncoder.INSTANCE);
        for (Frame f : frames) {
            assertThat(channel.writeOutbound(f)).isTrue();
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (ByteBuf b = channel.readOutbound(); b != null; b = channel.readOutbound()) {
            byte[] bytes = new byte[b.readableBytes()];
            b.readBytes(bytes);
            b.release();
            out.writeBytes(bytes);
        }
        assertThat(channel.finish()).isFalse();
        return out.toByteArray();
    }

    private static List<Object> decode(FrameDecoder decoder, byte[]... chunks) {
        EmbeddedChannel channel = new EmbeddedChannel(decoder);
        for (byte[] chunk : chunks) {
            channel.writeInbound(Unpooled.wrappedBuffer(chunk));
        }
        channel.finish();
        List<Object> out = new ArrayList<>();
        for (Object o = channel.readInbound(); o != null; o = channel.readInbound()) {
            out.add(o);
        }
        return out;
    }

    private static byte[][] chunks(byte[] wire, int size) {
        byte[][] out = new byte[(wire.length + size - 1) / size][];
        for (int i = 0; i < out.length; i++) {
            out[i] = Arrays.copyOfRange(wire, i * size, Math.min(wire.length, (i + 1) * size));
        }
        return out;
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
