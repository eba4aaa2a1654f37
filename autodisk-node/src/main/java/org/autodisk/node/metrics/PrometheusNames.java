package org.autodisk.node.metrics;

import io.micrometer.core.instrument.Meter;
import io.micrometer.prometheusmetrics.PrometheusNamingConvention;

/**
 * Prometheus names of the node's meters: the node's own begin with {@code autodisk_} ({@code requests} is
 * {@code autodisk_requests_total}); the JVM's and the process's keep their usual names ({@code jvm_...},
 * {@code process_...}, {@code system_...}).
 */
public final class PrometheusNames extends PrometheusNamingConvention {

    /** The prefix of the node's own meters. */
    public static final String PREFIX = "autodisk.";

    @Override
    public String name(String name, Meter.Type type, String baseUnit) {
        boolean standard = name.startsWith("jvm.") || name.startsWith("process.") || name.startsWith("system.");
        return super.name(standard ? name : PREFIX + name, type, baseUnit);
    }
}
