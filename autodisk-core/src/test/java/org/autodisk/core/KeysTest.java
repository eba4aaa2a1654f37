package org.autodisk.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.CharRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

class KeysTest {

    @Property(tries = 1000)
    void compareAgreesWithComparingUnsignedBytesOneByOne(@ForAll @Size(max = 8) byte[] a,
            @ForAll @Size(max = 8) byte[] b) {
        int expected = referenceCompare(a, b);

        assertThat(Integer.signum(Keys.compare(a, b))).isEqualTo(expected);
        assertThat(Integer.signum(Keys.ORDER.compare(a, b))).isEqualTo(expected);
        assertThat(Integer.signum(Keys.compare(b, a))).isEqualTo(-expected);
    }

    @Property
    void compareIsConsistentWithEquality(@ForAll @Size(max = 16) byte[] a) {
        assertThat(Keys.compare(a, a.clone())).isZero();
    }

    @Test
    void highBytesSortAfterLowBytes() {
        assertThat(Keys.compare(new byte[] {(byte) 0xff}, new byte[] {0x01})).isPositive();
        assertThat(Keys.compare(new byte[] {(byte) 0x80}, new byte[] {0x7f})).isPositive();
        assertThat(Keys.compare(new byte[] {0x01}, new byte[] {0x01, 0x00})).isNegative();
        assertThat(Keys.compare(new byte[0], new byte[] {0x00})).isNegative();

        List<byte[]> keys = new ArrayList<>(List.of(new byte[] {(byte) 0xff}, new byte[] {0x01, 0x02},
                new byte[] {(byte) 0x80}, new byte[] {0x01}, new byte[] {0x00}));
        keys.sort(Keys.ORDER);
        assertThat(keys).containsExactly(new byte[] {0x00}, new byte[] {0x01}, new byte[] {0x01, 0x02},
                new byte[] {(byte) 0x80}, new byte[] {(byte) 0xff});
    }

    @Test
    void renderShowsPrintableAsciiAsTextAndEverythingElseAsHex() {
        assertThat(Keys.render(Keys.utf8("user:42"))).isEqualTo("user:42");
        assertThat(Keys.render(new byte[] {0x00, (byte) 0xff, 0x41})).isEqualTo("0x00ff41");
        assertThat(Keys.render(Keys.utf8("tab\there"))).isEqualTo("0x" + "7461620968657265");
        assertThat(Keys.render(Keys.utf8("\u00e9"))).isEqualTo("0xc3a9");
        assertThat(Keys.render(new byte[] {0x7f})).isEqualTo("0x7f");
        assertThat(Keys.render(new byte[] {' ', '~'})).isEqualTo(" ~");
        assertThat(Keys.render(new byte[0])).isEqualTo("\"\"");
        assertThat(Keys.render(null)).isEqualTo("+inf");
    }

    @Test
    void parseReadsHexOrText() {
        assertThat(Keys.parse("0x00ff41")).containsExactly(0x00, 0xff, 0x41);
        assertThat(Keys.parse("0x00FF")).containsExactly(0x00, 0xff);
        assertThat(Keys.parse("user:42")).isEqualTo("user:42".getBytes(StandardCharsets.UTF_8));
        assertThat(Keys.parse("0x")).isEqualTo(new byte[] {'0', 'x'});
        assertThat(Keys.parse("\u00e9")).containsExactly(0xc3, 0xa9);
    }

    @Test
    void invalidHexIsRejectedWithTheKeyInTheMessage() {
        assertThatThrownBy(() -> Keys.parse("0xzz")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("key '0xzz' starts with 0x but is not valid hex");
        assertThatThrownBy(() -> Keys.parse("0xabc")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'0xabc'").hasMessageContaining("not valid hex");
    }

    @Property(tries = 500)
    void parseReadsBackTheHexThatRenderPrints(@ForAll @Size(min = 1, max = 32) byte[] key) {
        Assume.that(!isPrintableAscii(key));

        String rendered = Keys.render(key);

        assertThat(rendered).isEqualTo("0x" + HexFormat.of().formatHex(key));
        assertThat(Keys.parse(rendered)).isEqualTo(key);
    }

    @Property(tries = 500)
    void parseReadsBackTheTextThatRenderPrints(
            @ForAll @CharRange(from = ' ', to = '~') @StringLength(min = 1, max = 20) String text) {
        Assume.that(!text.startsWith("0x"));
        byte[] key = Keys.utf8(text);

        assertThat(Keys.render(key)).isEqualTo(text);
        assertThat(Keys.parse(Keys.render(key))).isEqualTo(key);
    }

    @Test
    void printableKeyThatStartsWith0xIsAmbiguous() {
        // render prints it as text, and parse reads that text back as hex: the CLI needs the 0x form of it
        byte[] key = Keys.utf8("0xab");

        assertThat(Keys.render(key)).isEqualTo("0xab");
        assertThat(Keys.parse(Keys.render(key))).containsExactly(0xab);
        assertThat(Keys.parse("0x" + HexFormat.of().formatHex(key))).isEqualTo(key);
    }

    private static boolean isPrintableAscii(byte[] key) {
        for (byte b : key) {
            if (b < 0x20 || b > 0x7e) {
                return false;
            }
        }
        return true;
    }

    private static int referenceCompare(byte[] a, byte[] b) {
        for (int i = 0; i < Math.min(a.length, b.length); i++) {
            int x = a[i] & 0xFF;
            int y = b[i] & 0xFF;
            if (x != y) {
                return x < y ? -1 : 1;
            }
        }
        return Integer.compare(a.length, b.length);
    }
}
