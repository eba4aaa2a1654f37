package org.autodisk.node.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.autodisk.core.config.ConfigKey;
import org.junit.jupiter.api.Test;

/** The reference table in docs/configuration.md lists every key with its real default. */
class ConfigurationDocsTest {

    @Test
    void everyKeyIsDocumentedWithItsDefault() throws IOException {
        List<String> rows = Files.readAllLines(Path.of("..", "docs", "configuration.md")).stream()
                .filter(l -> l.startsWith("| `")).toList();
        for (ConfigKey<?> key : NodeConfigKeys.ALL) {
            String row = rows.stream().filter(r -> r.startsWith("| `" + key.name() + "` |")).findFirst()
                    .orElseThrow(() -> new AssertionError(key.name() + " is missing from docs/configuration.md"));
            Object def = key.defaultValue();
            if (def instanceof Number || def instanceof Boolean || def instanceof String s && !s.isEmpty()) {
                assertThat(row).as(key.name()).contains("`" + def + "`");
            }
        }
        assertThat(rows).hasSize(NodeConfigKeys.ALL.size());
    }
}
