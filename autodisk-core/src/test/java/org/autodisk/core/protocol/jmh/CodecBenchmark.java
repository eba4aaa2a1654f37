package org.autodisk.core.protocol.jmh;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.autodisk.core.Limits;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.FrameDecoder;
import org.autodisk.core.protocol.FrameEncoder;
import org.autodisk.core.protocol.InsertRequest;
import org.autodisk.core.protocol.Opcode;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of the wire codec for a 1 KiB INSERT: the frame through the real {@link FrameEncoder} and
 * {@link FrameDecoder} in a Netty pipeline, and the body alone. Not a unit test; run it with JMH's main class.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "-Xmx512m")
@State(Scope.Thread)
public class CodecBenchmark {

    private static final int VALUE_BYTES = 1024;

    private InsertRequest request;
    private byte[] body;
    private Frame frame;
    private ByteBuf wire;
    private EmbeddedChannel encoder;
    private EmbeddedChannel decoder;

    @Setup(Level.Trial)
    public void setUp() {
        byte[] value = new byte[VALUE_BYTES];
        new SplittableRandom(42).nextBytes(value);
        request = new InsertRequest("bench:key:0000042".getBytes(StandardCharsets.UTF_8), value);
        body = request.encode();
        frame = Frame.request(Opcode.INSERT, 42, body);
        wire = PooledByteBufAllocator.DEFAULT.directBuffer(frame.wireBytes());
        FrameEncoder.write(frame, wire);
        encoder = new EmbeddedChannel(FrameEncoder.INSTANCE);
        encoder.config().setAllocator(PooledByteBufAllocator.DEFAULT);
        decoder = new EmbeddedChannel(new FrameDecoder(Limits.DEFAULT.maxFrameBytes()));
        decoder.config().setAllocator(PooledByteBufAllocator.DEFAULT);
        Frame check = frameEncodeDecode();
        if (check.requestId() != 42 || check.body().length != body.length) {
            throw new IllegalStateException("codec round trip is broken: " + check);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        wire.release();
        encoder.finishAndReleaseAll();
        decoder.finishAndReleaseAll();
    }

    /** Frame to bytes to frame: FrameEncoder into a pooled buffer, then FrameDecoder (which releases it). */
    @Benchmark
    public Frame frameEncodeDecode() {
        encoder.writeOutbound(frame);
        ByteBuf bytes = encoder.readOutbound();
        decoder.writeInbound(bytes);
        return decoder.readInbound();
    }

    /** FrameEncoder alone, into a pooled buffer. */
    @Benchmark
    public int frameEncode() {
        encoder.writeOutbound(frame);
        ByteBuf bytes = encoder.readOutbound();
        int n = bytes.readableBytes();
        bytes.release();
        return n;
    }

    /** FrameDecoder alone, from a pooled direct buffer holding one encoded frame. */
    @Benchmark
    public Frame frameDecode() {
        decoder.writeInbound(wire.retainedDuplicate());
        return decoder.readInbound();
    }

    /** FrameEncoder.write on a pooled buffer without a pipeline. */
    @Benchmark
    public int frameWriteDirect() {
        ByteBuf out = PooledByteBufAllocator.DEFAULT.directBuffer(frame.wireBytes());
        FrameEncoder.write(frame, out);
        int n = out.writerIndex();
        out.release();
        return n;
    }

    /** InsertRequest body encode. */
    @Benchmark
    public byte[] insertBodyEncode() {
        return request.encode();
    }

    /** InsertRequest body decode. */
    @Benchmark
    public InsertRequest insertBodyDecode() {
        return InsertRequest.decode(body);
    }
}
