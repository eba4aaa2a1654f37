package org.autodisk.core.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One configuration setting, defined once: its dotted name, type, default and one-line documentation.
 *
 * @param name         dotted name as written in YAML ({@code queue.capacity})
 * @param type         {@code String}, {@code Integer}, {@code Long}, {@code Double}, {@code Boolean} or
 *                     {@code List}
 * @param defaultValue the value when the setting is absent; {@code null} means required
 * @param doc          one line for the reference table
 * @param sensitive    whether the value is a secret, never logged or shown
 * @param <T>          the value type
 */
public record ConfigKey<T>(String name, Class<T> type, T defaultValue, String doc, boolean sensitive) {

    /**
     * Defines a key.
     *
     * @param name         dotted name
     * @param type         value type
     * @param defaultValue default, or {@code null} if required
     * @param doc          one-line documentation
     * @param <T>          value type
     * @return the key
     */
    public static <T> ConfigKey<T> of(String name, Class<T> type, T defaultValue, String doc) {
        return new ConfigKey<>(name, type, defaultValue, doc, false);
    }

    /**
     * Defines a text key whose value is a secret (a password, the cluster secret): its effective value is shown
     * only as whether it is set.
     *
     * @param name dotted name
     * @param doc  one-line documentation
     * @return the key, default empty (not set)
     */
    public static ConfigKey<String> secret(String name, String doc) {
        return new ConfigKey<>(name, String.class, "", doc, true);
    }

    /**
     * Returns the environment variable that overrides this key: {@code AUTODISK_} then the name upper-cased
     * with dots and dashes as underscores ({@code queue.capacity} is {@code AUTODISK_QUEUE_CAPACITY}).
     *
     * @return the variable name
     */
    public String envVar() {
        return "AUTODISK_" + name.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    /**
     * Converts a raw value from YAML or an environment variable to this key's type.
     *
     * @param raw a string, number, boolean or list
     * @return the typed value
     * @throws ConfigException naming the key if the value does not convert
     */
    public T convert(Object raw) {
        try {
            return type.cast(convertRaw(raw));
        } catch (IllegalArgumentException | ClassCastException e) {
            throw new ConfigException("configuration key '" + name + "' expects " + typeInWords() + " but got '"
                    + raw + "'");
        }
    }

    /**
     * Names this key's type as a user would: {@code a whole number}, {@code true or false}, ...
     *
     * @return the words
     */
    public String typeInWords() {
        if (type == Integer.class || type == Long.class) {
            return "a whole number";
        } else if (type == Double.class) {
            return "a number";
        } else if (type == Boolean.class) {
            return "true or false";
        } else if (type == List.class) {
            return "a list (comma-separated in a variable)";
        }
        return "text";
    }

    private Object convertRaw(Object raw) {
        if (type.isInstance(raw)) {
            return raw;
        }
        String text = String.valueOf(raw).trim();
        if (type == Integer.class) {
            return Integer.valueOf(text);
        } else if (type == Long.class) {
            return Long.valueOf(text);
        } else if (type == Double.class) {
            return Double.valueOf(text);
        } else if (type == Boolean.class) {
            return parseBoolean(text);
        } else if (type == String.class) {
            return text;
        } else if (type == List.class) {
            List<String> items = new ArrayList<>();
            for (String part : text.split(",")) {
                if (!part.isBlank()) {
                    items.add(part.trim());
                }
            }
            return items;
        }
        throw new IllegalArgumentException("unsupported type " + type);
    }

    private static Boolean parseBoolean(String text) {
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "true", "yes", "on" -> Boolean.TRUE;
            case "false", "no", "off" -> Boolean.FALSE;
            default -> throw new IllegalArgumentException(text);
        };
    }
}
