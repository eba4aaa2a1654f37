package org.autodisk.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.autodisk.core.protocol.MessagesTest.assertMalformed;
import static org.autodisk.core.protocol.MessagesTest.bytes;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/** The trace trailer that each node on a request's path appends to the response. */
class TraceTest {

    @Test
    void oneHopIsAppendedReadAndStripped() {
        byte[] payload = Responses.searchResult(bytes("value"));
        TraceHop hop = new TraceHop("node-1", "store", components("queue", 10L, "store", 250L, "total", 300L));

        byte[] traced = Trace.append(payload, false, hop);

        assertThat(Trace.hops(traced)).containsExactly(hop);
        assertThat(Trace.strip(traced)).isEqualTo(payload);
        assertThat(Responses.parseSearch(Trace.strip(traced))).isEqualTo(bytes("value"));
    }

    @Test
    void severalHopsAreListedInTheOrderTheyWereAppended() {
        byte[] payload = Responses.ok();
        TraceHop owner = new TraceHop("node-3", "store", components("queue", 1L, "store", 2L));
        TraceHop middle = new TraceHop("node-2", "forward", components("forward", 30L));
        TraceHop entry = new TraceHop("node-1", "forward", Map.of());

        byte[] traced = Trace.append(payload, false, owner);
        traced = Trace.append(traced, true, middle);
        traced = Trace.append(traced, true, entry);

        List<TraceHop> hops = Trace.hops(traced);
        assertThat(hops).containsExactly(owner, middle, entry);
        assertThat(new ArrayList<>(hops.get(0).components().keySet())).containsExactly("queue", "store");
        assertThat(hops.get(0).nanos("store")).isEqualTo(2L);
        assertThat(hops.get(0).nanos("forward")).isZero();
        assertThat(Trace.strip(traced)).isEqualTo(payload);
    }

    @Property(tries = 200)
    void anyHopsRoundTripAndStripRestoresThePayload(@ForAll @Size(min = 1, max = 300) byte[] payload,
            @ForAll @Size(min = 1, max = 6) List<@From("hop") TraceHop> hops) {
        byte[] traced = payload;
        for (int i = 0; i < hops.size(); i++) {
            traced = Trace.append(traced, i > 0, hops.get(i));
        }

        List<TraceHop> read = Trace.hops(traced);

        assertThat(read).isEqualTo(hops);
        for (int i = 0; i < hops.size(); i++) {
            assertThat(new ArrayList<>(read.get(i).components().keySet()))
                    .containsExactlyElementsOf(hops.get(i).components().keySet());
        }
        assertThat(Trace.strip(traced)).isEqualTo(payload);
    }

    @Test
    void hopComponentsAreAnImmutableCopy() {
        Map<String, Long> source = components("queue", 5L);
        TraceHop hop = new TraceHop("n", "store", source);

        source.put("later", 1L);

        assertThat(hop.components()).containsOnlyKeys("queue");
        assertThat(hop.components()).isUnmodifiable();
    }

    @Test
    void bodyWithoutAValidTrailerIsMalformed() {
        byte[] lying = Trace.append(Responses.ok(), false, new TraceHop("n", "store", Map.of()));
        lying[lying.length - 1] = 100;

        assertMalformed(() -> Trace.hops(new byte[] {0, 0, 0, 0}), "too short for a trailer");
        assertMalformed(() -> Trace.strip(new byte[] {0}), "too short for a trailer");
        assertMalformed(() -> Trace.hops(lying), "trace trailer length 100 does not fit the body");
        assertMalformed(() -> Trace.strip(new byte[] {0, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff}),
                "trace trailer length -1");
    }

    @Provide
    Arbitrary<TraceHop> hop() {
        Arbitrary<String> names = Arbitraries.strings().withCharRange('\u0020', '\ud7ff').ofMaxLength(20);
        Arbitrary<Map<String, Long>> components = Arbitraries.maps(names, Arbitraries.longs()).ofMaxSize(10);
        return Combinators.combine(names, names, components).as(TraceHop::new);
    }

    private static Map<String, Long> components(Object... nameNanos) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (int i = 0; i < nameNanos.length; i += 2) {
            out.put((String) nameNanos[i], (Long) nameNanos[i + 1]);
        }
        return out;
    }
}
