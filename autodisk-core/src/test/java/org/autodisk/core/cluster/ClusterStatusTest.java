package org.autodisk.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClusterStatusTest {

    private static final ClusterStatus STATUS = new ClusterStatus("node-1", "range", 17,
            List.of(new NodeStatus("node-1", "data", "10.0.0.1:7000", true, 1200,
                            Map.of("queue.depth", 3.0, "queue.wait.p99.us", 812.5)),
                    new NodeStatus("node-2", "data", "10.0.0.2:7000", false, 0, Map.of()),
                    new NodeStatus("log-1", "log", "10.0.0.9:7000", true, 0, Map.of())),
            List.of(new RangeStatus(0, "", "6d", "node-1", 3),
                    new RangeStatus(1, "6d", "ff00", "node-2", 1),
                    new RangeStatus(2, "ff00", null, "node-1", 5)));

    @Test
    void jsonRoundTrip() {
        ClusterStatus decoded = ClusterStatus.fromJson(STATUS.toJson());

        assertThat(decoded).isEqualTo(STATUS);
    }

    @Test
    void rangeBoundsAsBytesWithOpenEnds() {
        List<RangeStatus> ranges = ClusterStatus.fromJson(STATUS.toJson()).ranges();

        assertThat(ranges.get(0).low()).isEmpty();
        assertThat(ranges.get(0).high()).containsExactly(0x6d);
        assertThat(ranges.get(1).low()).containsExactly(0x6d);
        assertThat(ranges.get(1).high()).containsExactly(0xff, 0x00);
        assertThat(ranges.get(2).low()).containsExactly(0xff, 0x00);
        assertThat(ranges.get(2).highHex()).isNull();
        assertThat(ranges.get(2).high()).isNull();
    }

    @Test
    void jsonUsesTheRecordComponentNamesOnly() {
        String json = new String(STATUS.toJson(), StandardCharsets.UTF_8);

        assertThat(json).contains("\"reportedBy\":\"node-1\"", "\"mapVersion\":17", "\"highHex\":null",
                "\"lowHex\":\"\"", "\"streamCount\":1200");
        assertThat(json).doesNotContain("\"low\"", "\"high\"");
    }

    @Test
    void unknownPropertiesAreIgnoredForForwardCompatibility() {
        byte[] json = ("{\"id\":4,\"lowHex\":\"00\",\"highHex\":\"10\",\"owner\":\"n\",\"epoch\":2,"
                + "\"newField\":[1,2]}").getBytes(StandardCharsets.UTF_8);

        RangeStatus r = ClusterStatus.read(json, RangeStatus.class);
        assertThat(r).extracting(RangeStatus::id, RangeStatus::lowHex, RangeStatus::highHex, RangeStatus::owner,
                RangeStatus::epoch).containsExactly(4, "00", "10", "n", 2L);
        assertThat(r.logNodes()).isEmpty();
        assertThat(r.backup()).isNull();
        assertThat(r.requestsPerSecond()).as("an older node's range: rate unknown").isEqualTo(-1.0);
    }

    @Test
    void nodeStatusRoundTripsOnItsOwn() {
        NodeStatus node = new NodeStatus("n", "data", "h:1", true, 5, Map.of("served", 10.0));

        assertThat(ClusterStatus.read(ClusterStatus.write(node), NodeStatus.class)).isEqualTo(node);
    }

    @Test
    void badJsonNamesTheType() {
        byte[] bad = "{not json".getBytes(StandardCharsets.UTF_8);

        assertThatThrownBy(() -> ClusterStatus.fromJson(bad)).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("ClusterStatus");
    }
}
