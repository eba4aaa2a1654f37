package org.autodisk.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.autodisk.core.config.ConfigException;
import org.autodisk.core.config.ConfigLayer;
import picocli.CommandLine.Option;

/** {@code --set key=value}: extra node configuration for clusters the CLI starts. */
public final class SettingsOption {

    @Option(names = "--set", paramLabel = "KEY=VALUE",
            description = "Node configuration for every node, e.g. --set queue.workers=1 (repeatable).")
    List<String> settings = new ArrayList<>();

    /**
     * Returns the settings as a configuration layer named {@code --set}.
     *
     * @return the layer (empty without {@code --set})
     * @throws org.autodisk.core.config.ConfigException for a setting that is not {@code KEY=VALUE}
     */
    public ConfigLayer layer() {
        Map<String, Object> values = new LinkedHashMap<>();
        for (String s : settings) {
            int eq = s.indexOf('=');
            if (eq <= 0) {
                throw new ConfigException("--set expects KEY=VALUE, e.g. --set queue.workers=1; got '" + s + "'");
            }
            values.put(s.substring(0, eq).trim(), s.substring(eq + 1));
        }
        return new ConfigLayer("--set", values);
    }

    /**
     * Renders the settings as YAML lines.
     *
     * @return one line per setting
     * @throws IllegalArgumentException for a setting that is not {@code KEY=VALUE}
     */
    public String yaml() {
        StringBuilder y = new StringBuilder();
        for (String s : settings) {
            int eq = s.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("--set expects KEY=VALUE, got '" + s + "'");
            }
            y.append(s, 0, eq).append(": \"").append(s.substring(eq + 1).replace("\"", "\\\"")).append("\"\n");
        }
        return y.toString();
    }
}
