package org.autodisk.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.autodisk.core.config.ConfigLayer;
import org.autodisk.node.config.NodeConfig;

/** Settings of the nodes the CLI starts: parsed from YAML text, merged from layers, written as a node's YAML. */
final class LocalSettings {

    private LocalSettings() {
    }

    /**
     * Parses YAML settings text.
     *
     * @param yaml the text, may be empty
     * @return dotted key names to raw values
     */
    static Map<String, Object> parseYaml(String yaml) {
        return NodeConfig.parseYaml(yaml, "the extra settings");
    }

    /**
     * Merges layers (later ones win) and renders them as a node's YAML file, one dotted key per line.
     *
     * @param layers the settings, in order
     * @return the YAML text
     */
    static String yaml(List<ConfigLayer> layers) {
        Map<String, Object> merged = new LinkedHashMap<>();
        layers.forEach(l -> merged.putAll(l.values()));
        StringBuilder y = new StringBuilder();
        for (Map.Entry<String, Object> e : merged.entrySet()) {
            y.append(e.getKey()).append(": ");
            if (e.getValue() instanceof List<?> list) {
                y.append('[').append(String.join(", ", list.stream().map(v -> quote(String.valueOf(v))).toList()))
                        .append(']');
            } else {
                y.append(quote(String.valueOf(e.getValue())));
            }
            y.append('\n');
        }
        return y.toString();
    }

    private static String quote(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
