package org.autodisk.core.config;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Effective configuration: the known keys' values, from a flat map of dotted names, with defaults filled in
 * and environment variables applied on top.
 */
public final class Config {

    private final Map<String, ConfigKey<?>> keys = new LinkedHashMap<>();
    private final Map<String, Object> values = new LinkedHashMap<>();

    private Config(Collection<ConfigKey<?>> known) {
        for (ConfigKey<?> k : known) {
            keys.put(k.name(), k);
        }
    }

    /**
     * Builds the effective configuration.
     *
     * @param known  every key this component understands
     * @param given  dotted names to raw values (from a file), may be empty
     * @param env    environment variables (or an empty map to ignore the environment)
     * @param source where {@code given} came from, for error messages
     * @return the configuration
     * @throws ConfigException on an unknown key, a value of the wrong type or a missing required key
     */
    public static Config of(Collection<ConfigKey<?>> known, Map<String, Object> given, Map<String, String> env,
            String source) {
        Config c = new Config(known);
        for (Map.Entry<String, Object> e : given.entrySet()) {
            ConfigKey<?> k = c.keys.get(e.getKey());
            if (k == null) {
                throw new ConfigException("unknown configuration key '" + e.getKey() + "' in " + source
                        + " (see docs/configuration.md for the keys)");
            }
            c.values.put(k.name(), k.convert(e.getValue()));
        }
        for (ConfigKey<?> k : known) {
            String fromEnv = env.get(k.envVar());
            if (fromEnv != null) {
                c.values.put(k.name(), k.convert(fromEnv));
            }
        }
        return c;
    }

    /**
     * Returns a key's value: the given one, else the default.
     *
     * @param key the key
     * @param <T> its type
     * @return the value
     * @throws ConfigException if the key is required and absent
     */
    public <T> T get(ConfigKey<T> key) {
        Object v = values.get(key.name());
        if (v == null) {
            v = key.defaultValue();
        }
        if (v == null) {
            throw new ConfigException("configuration key '" + key.name() + "' is required (" + key.doc() + ")");
        }
        return key.type().cast(v);
    }

    /**
     * Tells whether a key was given explicitly.
     *
     * @param key the key
     * @return true if set in the file or environment
     */
    public boolean isSet(ConfigKey<?> key) {
        return values.containsKey(key.name());
    }

    /**
     * Returns every known key with its effective value, sorted by name, for the start-up log.
     *
     * @return name to value ({@code <required>} where a required key is missing; a secret shows only as
     *         {@code <set>} or {@code <not set>})
     */
    public Map<String, Object> effective() {
        Map<String, Object> out = new TreeMap<>();
        for (ConfigKey<?> k : keys.values()) {
            Object v = values.containsKey(k.name()) ? values.get(k.name()) : k.defaultValue();
            if (k.sensitive()) {
                v = v == null || String.valueOf(v).isEmpty() ? "<not set>" : "<set>";
            }
            out.put(k.name(), v == null ? "<required>" : v);
        }
        return out;
    }
}
