package org.autodisk.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class LimitsTest {

    @Test
    void defaultsAreTheProtocolLimits() {
        assertThat(Limits.DEFAULT.maxKeyBytes()).isEqualTo(1024);
        assertThat(Limits.DEFAULT.maxValueBytes()).isEqualTo(4 * 1024 * 1024);
        assertThat(Limits.DEFAULT.maxFrameBytes()).isEqualTo(4 * 1024 * 1024 + 64 * 1024);
    }

    @Test
    void keysMustBeOneTo1024Bytes() {
        assertThat(Limits.DEFAULT.checkKey(new byte[0])).isEqualTo("key is empty: keys must be 1..1024 bytes");
        assertThat(Limits.DEFAULT.checkKey(null)).contains("key is empty", "1..1024");
        assertThat(Limits.DEFAULT.checkKey(new byte[1])).isNull();
        assertThat(Limits.DEFAULT.checkKey(new byte[1024])).isNull();
        assertThat(Limits.DEFAULT.checkKey(new byte[1025]))
                .isEqualTo("key is 1025 bytes: keys must be 1..1024 bytes");
    }

    @Test
    void smallerKeyLimitIsNamedInTheMessage() {
        Limits limits = new Limits(16, 100);

        assertThat(limits.checkKey(new byte[16])).isNull();
        assertThat(limits.checkKey(new byte[17])).contains("17 bytes", "1..16");
    }

    @Test
    void valuesMayBeEmptyButNotOverTheLimit() {
        Limits limits = new Limits(1024, 10);

        assertThat(limits.checkValue(new byte[0])).isNull();
        assertThat(limits.checkValue(new byte[10])).isNull();
        assertThat(limits.checkValue(new byte[11]))
                .isEqualTo("value is 11 bytes: the limit (limits.max-value-bytes) is 10 bytes");
        assertThat(limits.checkValue(null)).isEqualTo("value is missing");
        assertThat(Limits.DEFAULT.checkValue(new byte[Limits.DEFAULT_MAX_VALUE_BYTES + 1]))
                .contains("limits.max-value-bytes", String.valueOf(Limits.DEFAULT_MAX_VALUE_BYTES));
    }

    @Test
    void constructorRejectsLimitsOutOfRange() {
        assertThatThrownBy(() -> new Limits(0, 10)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxKeyBytes must be 1..1024, was 0");
        assertThatThrownBy(() -> new Limits(1025, 10)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("was 1025");
        assertThatThrownBy(() -> new Limits(1024, -1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxValueBytes").hasMessageContaining("was -1");
        int largest = Integer.MAX_VALUE - Limits.FRAME_OVERHEAD_BYTES;
        assertThatThrownBy(() -> new Limits(1024, largest + 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("leave room for a frame");
        assertThat(new Limits(1, 0).maxFrameBytes()).isEqualTo(Limits.FRAME_OVERHEAD_BYTES);
        assertThat(new Limits(1024, largest).maxFrameBytes()).isEqualTo(Integer.MAX_VALUE);
    }
}
