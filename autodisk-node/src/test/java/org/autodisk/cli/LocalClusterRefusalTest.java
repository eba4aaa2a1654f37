package org.autodisk.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.autodisk.core.config.ConfigException;
import org.autodisk.core.config.ConfigLayer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./autodisk local} refuses impossible flags and settings before it starts any node, naming the flag: no node
 * configuration or log is written, no process started.
 */
class LocalClusterRefusalTest {

    @TempDir
    Path dir;

    private void assertRefused(LocalCluster.Layout layout, List<ConfigLayer> settings, String... message)
            throws IOException {
        assertThatThrownBy(() -> LocalCluster.start(layout, settings)).isInstanceOf(ConfigException.class)
                .hasMessageContainingAll(message);
        try (Stream<Path> files = Files.exists(dir) ? Files.list(dir) : Stream.empty()) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .noneMatch(n -> n.endsWith(".yaml") || n.endsWith(".log"));
        }
    }

    private LocalCluster.Layout layout(int data, int logs, List<String> splitPoints) {
        return new LocalCluster.Layout(dir, data, logs, 7400, splitPoints);
    }

    private static ConfigLayer multiplicity(int m) {
        return new ConfigLayer("--multiplicity", Map.of("wal.multiplicity", m));
    }

    @Test
    void aMultiplicityOfTwoWithoutLogNodes() throws IOException {
        assertRefused(layout(3, 0, List.of()), List.of(multiplicity(2)), "wal.multiplicity 2 (from --multiplicity)",
                "(from --data-nodes 3 --log-nodes 0 --base-port 7400) has 0 log node(s)");
    }

    @Test
    void splitPointsThatLeaveADataNodeWithNothing() throws IOException {
        assertRefused(layout(3, 0, List.of("h")), List.of(multiplicity(1)), "(from --split-points)",
                "d3 would own no range");
    }

    @Test
    void anUnknownKeyInSet() throws IOException {
        assertRefused(layout(1, 0, List.of()), List.of(new ConfigLayer("--set", Map.of("queue.wokers", "3"))),
                "unknown configuration key 'queue.wokers' in --set", "did you mean queue.workers?");
    }

    @Test
    void aValueOfTheWrongTypeInSet() throws IOException {
        assertRefused(layout(1, 0, List.of()), List.of(new ConfigLayer("--set", Map.of("queue.capacity", "lots"))),
                "'queue.capacity' expects a whole number but got 'lots' (from --set)");
    }

    @Test
    void impossibleShapes() throws IOException {
        assertRefused(layout(0, 1, List.of()), List.of(), "--data-nodes 0: a cluster needs at least 1 data node");
        assertRefused(layout(1, -1, List.of()), List.of(), "--log-nodes -1");
        assertRefused(new LocalCluster.Layout(dir, 3, 0, 65534, List.of()), List.of(), "--base-port 65534",
                "65534..65536");
    }

    @Test
    void setMustBeKeyEqualsValue() {
        SettingsOption s = new SettingsOption();
        s.settings.add("queue.workers");
        assertThatThrownBy(s::layer).isInstanceOf(ConfigException.class)
                .hasMessageContaining("--set expects KEY=VALUE").hasMessageContaining("'queue.workers'");
    }
}
