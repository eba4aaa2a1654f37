package org.autodisk.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.autodisk.core.protocol.MessagesTest.assertMalformed;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class BodyWriterReaderTest {

    /** One field: how to write it, how to write the same bytes with the JDK, and how to read and check it. */
    private sealed interface Field {
        void write(BodyWriter w);

        void writeExpected(DataOutputStream out) throws IOException;

        void readAndCheck(BodyReader r);
    }

    private record U8(int v) implements Field {
        public void write(BodyWriter w) {
            w.u8(v);
        }

        public void writeExpected(DataOutputStream out) throws IOException {
            out.writeByte(v);
        }

        public void readAndCheck(BodyReader r) {
            assertThat(r.u8("u8")).isEqualTo(v);
        }
    }

    private record U16(int v) implements Field {
        public void write(BodyWriter w) {
            w.u16(v);
        }

        public void writeExpected(DataOutputStream out) throws IOException {
            out.writeShort(v);
        }

        public void readAndCheck(BodyReader r) {
            assertThat(r.u16("u16")).isEqualTo(v);
        }
    }

    private record I32(int v) implements Field {
        public void write(BodyWriter w) {
            w.i32(v);
        }

        public void writeExpected(DataOutputStream out) throws IOException {
            out.writeInt(v);
        }

        public void readAndCheck(BodyReader r) {
            assertThat(r.i32("i32")).isEqualTo(v);
        }
    }

    private record I64(long v) implements Field {
        public void write(BodyWriter w) {
            w.i64(v);
        }

        public void writeExpected(DataOutputStream out) throws IOException {
            out.writeLong(v);
        }

        public void readAndCheck(BodyReader r) {
            assertThat(r.i64("i64")).isEqualTo(v);
        }
    }

    private record ShortBytes(byte[] v) implements Field {
        public void write(BodyWriter w) {
            w.shortBytes(v);
        }

        public void writeExpected(DataOutputStream out) throws IOException {
            out.writeShort(v.length);
            out.write(v);
        }

        public void readAndCheck(BodyReader r) {
            assertThat(r.shortBytes("short bytes")).isEqualTo(v);
        }
    }

    private record LongBytes(byte[] v) implements Field {
        public void write(BodyWriter w) {
            w.longBytes(v);
        }

        public void writeExpected(DataOutputStream out) throws IOException {
            out.writeInt(v.length);
            out.write(v);
        }

        public void readAndCheck(BodyReader r) {
            assertThat(r.longBytes("long bytes")).isEqualTo(v);
        }
    }

    private record Text(String v) implements Field {
        public void write(BodyWriter w) {
            w.string(v);
        }

        public void writeExpected(DataOutputStream out) throws IOException {
            byte[] utf8 = v.getBytes(StandardCharsets.UTF_8);
            out.writeShort(utf8.length);
            out.write(utf8);
        }

        public void readAndCheck(BodyReader r) {
            assertThat(r.string("string")).isEqualTo(v);
        }
    }

    @Property(tries = 500)
    void anySequenceOfFieldsRoundTrips(@ForAll @Size(max = 40) List<@From("field") Field> fields,
            @ForAll @IntRange(max = 64) int initialCapacity) {
        BodyWriter w = new BodyWriter(initialCapacity);
        fields.forEach(f -> f.write(w));
        byte[] body = w.toBytes();

        assertThat(body).hasSize(w.size());
        BodyReader r = new BodyReader(body);
        fields.forEach(f -> f.readAndCheck(r));
        assertThat(r.remaining()).isZero();
        r.expectEnd("sequence");
    }

    @Property(tries = 300)
    void bytesAreBigEndianWithJdkCompatibleLayout(@ForAll @Size(max = 40) List<@From("field") Field> fields) {
        BodyWriter w = new BodyWriter(0);
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(expected);
        for (Field f : fields) {
            f.write(w);
            try {
                f.writeExpected(out);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        assertThat(w.toBytes()).isEqualTo(expected.toByteArray());
    }

    @Property(tries = 200)
    void readingPastTheEndIsMalformedAndLeavesTheFieldName(@ForAll @Size(max = 20) List<@From("field") Field> fields,
            @ForAll("field") Field extra) {
        BodyWriter w = new BodyWriter(8);
        fields.forEach(f -> f.write(w));
        BodyReader r = new BodyReader(w.toBytes());
        fields.forEach(f -> f.readAndCheck(r));

        assertThatThrownBy(() -> extra.readAndCheck(r)).isInstanceOfSatisfying(ProtocolException.class, e -> {
            assertThat(e.status()).isEqualTo(Status.MALFORMED);
            assertThat(e.getMessage()).startsWith("truncated body: ").contains("0 left");
        });
    }

    @Test
    void readerOfASubrangeStopsAtItsEnd() {
        byte[] body = {9, 1, 2, 3, 9};
        BodyReader r = new BodyReader(body, 1, 4);

        assertThat(r.remaining()).isEqualTo(3);
        assertThat(r.u16("first")).isEqualTo(0x0102);
        assertThat(r.u8("second")).isEqualTo(3);
        assertMalformed(() -> r.u8("third"), "third needs 1 bytes, 0 left");
    }

    @Test
    void trailingBytesAndNegativeLengthsAreMalformed() {
        BodyReader trailing = new BodyReader(new byte[] {1, 2, 3});
        trailing.u8("one");
        BodyReader negative = new BodyReader(new byte[] {(byte) 0x80, 0, 0, 0});

        assertMalformed(() -> trailing.expectEnd("thing"), "thing has 2 unexpected trailing bytes");
        assertMalformed(() -> negative.longBytes("blob"), "blob length is negative (-2147483648)");
        assertMalformed(() -> new BodyReader(new byte[4]).raw(-1, "raw"), "raw needs -1 bytes");
    }

    @Test
    void unsignedReadsNeverComeOutNegative() {
        BodyReader r = new BodyReader(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff});

        assertThat(r.u8("a")).isEqualTo(255);
        assertThat(r.u16("b")).isEqualTo(65535);
    }

    @Test
    void shortBytesOver65535AreRejectedButLongStringsAreCutToFit() {
        String longText = "a".repeat(70_000);

        byte[] body = new BodyWriter(0).string(longText).toBytes();

        assertThatThrownBy(() -> new BodyWriter(0).shortBytes(new byte[65_536]))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(new BodyReader(body).string("s")).isEqualTo("a".repeat(65_535));
    }

    @Test
    void bytesReturnedEarlierAreNotChangedByLaterWrites() {
        BodyWriter w = new BodyWriter(16);
        w.i64(1).i64(2);
        byte[] first = w.toBytes();

        w.i64(3);

        assertThat(first).hasSize(16);
        assertThat(new BodyReader(first).i64("x")).isEqualTo(1);
        assertThat(new BodyReader(first, 8, 16).i64("y")).isEqualTo(2);
        assertThat(w.toBytes()).hasSize(24);
    }

    @Provide
    Arbitrary<Field> field() {
        Arbitrary<byte[]> shortArrays = Arbitraries.bytes().array(byte[].class).ofMaxSize(300);
        Arbitrary<byte[]> longArrays = Arbitraries.bytes().array(byte[].class).ofMaxSize(3000);
        return Arbitraries.oneOf(
                Arbitraries.integers().between(0, 255).map(U8::new),
                Arbitraries.integers().between(0, 65_535).map(U16::new),
                Arbitraries.integers().map(I32::new),
                Arbitraries.longs().map(I64::new),
                shortArrays.map(ShortBytes::new),
                longArrays.map(LongBytes::new),
                Arbitraries.strings().withCharRange('\u0000', '\ud7ff').ofMaxLength(100).map(Text::new));
    }
}
