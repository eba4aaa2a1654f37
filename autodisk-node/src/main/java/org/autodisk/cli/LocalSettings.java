package org.autodisk.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
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

    /**
     * Makes sure a cluster's secret file exists: the nodes prove membership with a secret of the cluster's own,
     * generated once and kept with its files (readable by its owner only where the file system says so).
     *
     * @param secret the file
     * @throws IOException if it cannot be written
     */
    static void ensureSecret(Path secret) throws IOException {
        if (Files.exists(secret)) {
            return;
        }
        byte[] random = new byte[32];
        new SecureRandom().nextBytes(random);
        Files.writeString(secret, HexFormat.of().formatHex(random) + "\n");
        try {
            Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system: the file keeps the default permissions
        }
    }
}
