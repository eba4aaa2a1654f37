package org.autodisk.core.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Settings from one source, named as the user knows it: a file, {@code --set}, a command-line flag.
 *
 * @param source the source in the user's words ({@code /etc/autodisk/d1.yaml}, {@code --set},
 *               {@code --multiplicity})
 * @param values dotted key names to raw values
 */
public record ConfigLayer(String source, Map<String, ?> values) {

    /**
     * Copies the values, keeping their order.
     *
     * @param source the source
     * @param values the values
     */
    public ConfigLayer {
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }
}
