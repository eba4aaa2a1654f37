package org.autodisk.core.protocol;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one node did for one request and how long each part took there.
 *
 * @param nodeId     the node
 * @param action     what it did: {@code store}, {@code forward}, {@code gather}, ...
 * @param components named durations in nanoseconds, in the order they happened ({@code queue}, {@code store},
 *                   {@code forward}, {@code total}, ...)
 */
public record TraceHop(String nodeId, String action, Map<String, Long> components) {

    /** Copies the map so the hop is immutable and keeps insertion order. */
    public TraceHop {
        components = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(components));
    }

    /**
     * Returns one component's duration.
     *
     * @param name the component
     * @return nanoseconds, or 0 if the hop has no such component
     */
    public long nanos(String name) {
        return components.getOrDefault(name, 0L);
    }
}
