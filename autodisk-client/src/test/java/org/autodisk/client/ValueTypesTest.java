package org.autodisk.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.autodisk.core.protocol.TraceHop;
import org.junit.jupiter.api.Test;

class ValueTypesTest {

    @Test
    void streamEntryComparesByContent() {
        StreamEntry a = new StreamEntry(new byte[] {1, 2}, new byte[] {3});
        StreamEntry b = new StreamEntry(new byte[] {1, 2}, new byte[] {3});

        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b).isNotEqualTo(new StreamEntry(new byte[] {1, 2}, new byte[0]));
        assertThat(a.toString()).isEqualTo(b.toString()).contains("0x0102");
        assertThat(StreamEntry.of("k", "v").toString()).contains("k").contains("v");
        assertThat(StreamEntry.of("ключ", "wert").keyString()).isEqualTo("ключ");
        assertThat(new StreamEntry(new byte[] {1}, new byte[1000]).toString())
                .contains("1000 bytes")
                .hasSizeLessThan(200);
    }

    @Test
    void tracedCopiesItsHops() {
        List<TraceHop> hops = new ArrayList<>();
        Traced<String> t = new Traced<>("x", hops, 5);
        hops.add(new TraceHop("n", "store", Map.of()));

        assertThat(t.hops()).isEmpty();
    }

    @Test
    void seedsParse() {
        assertThat(Seed.parse("node-a:7400")).isEqualTo(new Seed("node-a", 7400));
        assertThat(Seed.parse("[::1]:7400")).isEqualTo(new Seed("::1", 7400));
        assertThat(Seed.parse("[::1]:7400").toString()).isEqualTo("[::1]:7400");
        assertThatThrownBy(() -> Seed.parse(":7400")).hasMessageContaining("':7400'");
        assertThatThrownBy(() -> Seed.parse("::1:7400")).hasMessageContaining("[address]");
        assertThatThrownBy(() -> Seed.parse("a:0")).hasMessageContaining("1..65535");
    }
}
