package org.autodisk.cli;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** {@code --set key=value}: extra node configuration for clusters the CLI starts. */
public final class SettingsOption {

    @Option(names = "--set", paramLabel = "KEY=VALUE",
            description = "Node configuration for every node, e.g. --set queue.workers=1 (repeatable).")
    List<String> settings = new ArrayList<>();

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
