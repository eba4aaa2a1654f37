package org.autodisk.node.config;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.autodisk.core.config.ConfigException;

/** Reads YAML settings as dotted keys ({@code cluster: {nodes: ...}} becomes {@code cluster.nodes}). */
final class YamlSettings {

    private YamlSettings() {
    }

    /**
     * Reads a YAML file of settings as dotted keys.
     *
     * @param file the file
     * @return dotted key names to raw values
     * @throws ConfigException naming the file if it cannot be read or is not a mapping
     */
    static Map<String, Object> read(Path file) {
        try {
            return flatten("", readTree(file));
        } catch (IOException e) {
            throw new ConfigException("cannot read configuration " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Parses YAML settings text as dotted keys.
     *
     * @param text   the YAML (may be empty)
     * @param source where it came from, for errors
     * @return dotted key names to raw values
     * @throws ConfigException naming the source if it is not YAML or not a mapping
     */
    static Map<String, Object> parse(String text, String source) {
        if (text.isBlank()) {
            return Map.of();
        }
        try {
            return flatten("", mapping(new ObjectMapper(new YAMLFactory()).readValue(text, Object.class), source));
        } catch (IOException e) {
            throw new ConfigException("cannot read the settings of " + source + ": " + e.getMessage(), e);
        }
    }

    private static Map<String, Object> readTree(Path file) throws IOException {
        return mapping(new ObjectMapper(new YAMLFactory()).readValue(file.toFile(), Object.class), file.toString());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> mapping(Object tree, String source) {
        if (tree == null) {
            return Map.of();
        }
        if (!(tree instanceof Map)) {
            throw new ConfigException("configuration " + source + " must be a YAML mapping of keys");
        }
        return (Map<String, Object>) tree;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> flatten(String prefix, Map<String, Object> tree) {
        Map<String, Object> flat = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : tree.entrySet()) {
            String name = prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey();
            if (e.getValue() instanceof Map<?, ?> nested) {
                flat.putAll(flatten(name, (Map<String, Object>) nested));
            } else if (e.getValue() != null) {
                flat.put(name, e.getValue());
            }
        }
        return flat;
    }
}
