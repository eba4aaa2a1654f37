package org.autodisk.core.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Effective configuration: the known keys' values from layers of settings (a file, then {@code --set} or flags),
 * environment variables applied on top, defaults filling the rest. Every value remembers where it came from, so
 * that an error can name the file, variable or flag to fix.
 */
public final class Config {

    /**
     * Environment variables that begin with {@code AUTODISK_} but belong to the project's scripts and compose file,
     * not to a node's configuration; every other {@code AUTODISK_} variable must name a key.
     */
    public static final Set<String> TOOL_VARIABLES = Set.of("AUTODISK_NO_BUILD", "AUTODISK_IMAGE",
            "AUTODISK_BASE_IMAGE", "AUTODISK_BASE_IMAGE_TAG", "AUTODISK_HEALTHCHECK_JAVA_OPTS", "AUTODISK_NODE_OPTS",
            "AUTODISK_IT_BASE_IMAGE", "AUTODISK_D1_PORT", "AUTODISK_D2_PORT", "AUTODISK_D3_PORT", "AUTODISK_D4_PORT",
            "AUTODISK_D5_PORT", "AUTODISK_D1_METRICS_PORT", "AUTODISK_D2_METRICS_PORT", "AUTODISK_D3_METRICS_PORT",
            "AUTODISK_D4_METRICS_PORT", "AUTODISK_D5_METRICS_PORT");

    private static final String PREFIX = "AUTODISK_";
    private static final String DEFAULT = "the default";

    private final Map<String, ConfigKey<?>> keys = new LinkedHashMap<>();
    private final Map<String, Object> values = new LinkedHashMap<>();
    private final Map<String, String> origins = new LinkedHashMap<>();
    private final List<String> sources = new ArrayList<>();

    private Config(Collection<ConfigKey<?>> known) {
        for (ConfigKey<?> k : known) {
            keys.put(k.name(), k);
        }
    }

    /**
     * Builds the effective configuration from one source of settings.
     *
     * @param known  every key this component understands
     * @param given  dotted names to raw values (from a file), may be empty
     * @param env    environment variables (or an empty map to ignore the environment)
     * @param source where {@code given} came from, for error messages
     * @return the configuration
     * @throws ConfigException on an unknown key or variable, or a value of the wrong type
     */
    public static Config of(Collection<ConfigKey<?>> known, Map<String, Object> given, Map<String, String> env,
            String source) {
        return of(known, List.of(new ConfigLayer(source, given)), env);
    }

    /**
     * Builds the effective configuration: each layer overrides the ones before it, the environment overrides
     * them all.
     *
     * @param known  every key this component understands
     * @param layers the settings, in order
     * @param env    environment variables (or an empty map to ignore the environment)
     * @return the configuration
     * @throws ConfigException on an unknown key or {@code AUTODISK_} variable, or a value of the wrong type, naming
     *                         the key, the value and its source
     */
    public static Config of(Collection<ConfigKey<?>> known, List<ConfigLayer> layers, Map<String, String> env) {
        Config c = new Config(known);
        for (ConfigLayer layer : layers) {
            c.sources.add(layer.source());
            for (Map.Entry<String, ?> e : layer.values().entrySet()) {
                ConfigKey<?> k = c.keys.get(e.getKey());
                if (k == null) {
                    throw new ConfigException("unknown configuration key '" + e.getKey() + "' in " + layer.source()
                            + c.suggest(e.getKey(), false) + " (see docs/configuration.md for the keys)");
                }
                c.put(k, e.getValue(), layer.source());
            }
        }
        c.applyEnvironment(env);
        return c;
    }

    private void applyEnvironment(Map<String, String> env) {
        Map<String, ConfigKey<?>> byVariable = new LinkedHashMap<>();
        keys.values().forEach(k -> byVariable.put(k.envVar(), k));
        for (Map.Entry<String, String> e : new TreeMap<>(env).entrySet()) {
            ConfigKey<?> k = byVariable.get(e.getKey());
            if (k != null) {
                put(k, e.getValue(), "environment variable " + k.envVar());
            } else if (e.getKey().startsWith(PREFIX) && !TOOL_VARIABLES.contains(e.getKey())) {
                // the value is not repeated: a misspelt secret variable must not end up in a log
                throw new ConfigException("unknown environment variable " + e.getKey() + ": it names no "
                        + "configuration key" + suggest(e.getKey(), true)
                        + " (see docs/configuration.md for the keys; unset it)");
            }
        }
        if (!env.isEmpty()) {
            sources.add("the environment (AUTODISK_...)");
        }
    }

    private void put(ConfigKey<?> k, Object raw, String source) {
        try {
            values.put(k.name(), k.convert(raw));
        } catch (ConfigException e) {
            throw new ConfigException(e.getMessage() + " (from " + source + ")", e);
        }
        origins.put(k.name(), source);
    }

    /** Names the closest known key (or variable) to a misspelt one, if one is close. */
    private String suggest(String wrong, boolean variable) {
        String best = null;
        int bestDistance = 4;
        for (ConfigKey<?> k : keys.values()) {
            String candidate = variable ? k.envVar() : k.name();
            int d = distance(wrong, candidate);
            if (d < bestDistance) {
                best = candidate;
                bestDistance = d;
            }
        }
        return best == null ? "" : " (did you mean " + best + "?)";
    }

    private static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int same = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + same);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    /**
     * Says where a key's effective value came from.
     *
     * @param key the key
     * @return e.g. {@code /etc/autodisk/d1.yaml}, {@code environment variable AUTODISK_WAL_MULTIPLICITY},
     *         {@code --set}, or {@code the default}
     */
    public String origin(ConfigKey<?> key) {
        return origins.getOrDefault(key.name(), DEFAULT);
    }

    /**
     * Describes a key's effective value and its origin, for error messages.
     *
     * @param key the key
     * @return e.g. {@code wal.multiplicity 3 (from environment variable AUTODISK_WAL_MULTIPLICITY)}
     */
    public String describe(ConfigKey<?> key) {
        Object v = values.containsKey(key.name()) ? values.get(key.name()) : key.defaultValue();
        String shown = key.sensitive() ? "(secret)" : v instanceof List<?> l ? String.join(",",
                l.stream().map(String::valueOf).toList()) : String.valueOf(v);
        return key.name() + " " + shown + " (from " + origin(key) + ")";
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
            throw new ConfigException("configuration key '" + key.name() + "' is required (" + key.doc() + ") but is "
                    + "not set" + where() + ": set " + key.name() + " in a configuration file or the variable "
                    + key.envVar());
        }
        return key.type().cast(v);
    }

    private String where() {
        if (sources.isEmpty()) {
            return "";
        }
        return sources.size() == 1 ? " in " + sources.get(0) : " in " + String.join(", ", sources.subList(0,
                sources.size() - 1)) + " nor in " + sources.get(sources.size() - 1);
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
