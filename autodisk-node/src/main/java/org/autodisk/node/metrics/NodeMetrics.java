package org.autodisk.node.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import org.autodisk.core.cluster.MetricNames;

/**
 * A node's figures, all registered in one Micrometer registry under the names of {@link MetricNames} (tagged with
 * the node id, and with the stream for per-stream meters). Everything that reports figures - STATUS and NODE_INFO,
 * the load reports the rules see - reads them from the registry through {@link #snapshot()}. Timers keep the
 * median and 99th percentile of the last two minutes.
 */
public final class NodeMetrics {

    /** The tag naming the log stream (data node) of a per-stream meter. */
    public static final String STREAM_TAG = "stream";

    private final MeterRegistry registry;
    private final Counter requests;
    private final Counter forwarded;
    private final Counter overloaded;
    private final Counter errors;
    private final Counter ruleFailures;
    private final Counter alerts;
    private final Timer queueWait;
    private final Timer serviceTime;
    private final Timer ruleTime;

    /**
     * Creates metrics for one node in a registry of its own.
     *
     * @param nodeId the node, added as a tag
     */
    public NodeMetrics(String nodeId) {
        this(nodeId, new SimpleMeterRegistry());
    }

    /**
     * Creates metrics for one node.
     *
     * @param nodeId   the node, added as a tag to every meter
     * @param registry where the meters are registered
     */
    public NodeMetrics(String nodeId, MeterRegistry registry) {
        this.registry = registry;
        registry.config().meterFilter(MeterFilter.commonTags(java.util.List.of(
                io.micrometer.core.instrument.Tag.of("node", nodeId))));
        requests = counter(MetricNames.REQUESTS, "requests taken from the queue by a worker");
        forwarded = counter(MetricNames.FORWARDED, "requests forwarded to another node");
        overloaded = counter(MetricNames.OVERLOADED, "requests refused because the queue was full");
        errors = counter(MetricNames.ERRORS, "requests answered with an error");
        ruleFailures = counter(MetricNames.RULE_FAILURES, "evaluations in which a rule threw");
        alerts = counter(MetricNames.RULE_ALERTS, "alerts raised by rules");
        queueWait = timer(MetricNames.QUEUE_WAIT, "time from arrival to the start of work");
        serviceTime = timer(MetricNames.SERVICE, "time from arrival to the reply");
        ruleTime = timer(MetricNames.RULES, "time the rules took to decide a request");
    }

    private Counter counter(String name, String description) {
        return Counter.builder(name).description(description).register(registry);
    }

    private Timer timer(String name, String description) {
        return Timer.builder(name).description(description).publishPercentiles(0.5, 0.99).percentilePrecision(2)
                .register(registry);
    }

    /**
     * Registers a gauge read from a supplier.
     *
     * @param name        its name (from {@link MetricNames})
     * @param description one line
     * @param value       read when the gauge is read
     */
    public void gauge(String name, String description, Supplier<Number> value) {
        Gauge.builder(name, value).description(description).register(registry);
    }

    /**
     * Registers a gauge of one log stream (again for the same stream is a no-op).
     *
     * @param name   its name (from {@link MetricNames})
     * @param stream the data node whose log it describes
     * @param value  read when the gauge is read
     */
    public void streamGauge(String name, String stream, Supplier<Number> value) {
        Gauge.builder(name, value).tag(STREAM_TAG, stream).register(registry);
    }

    /**
     * Registers a counter whose count is read from an object.
     *
     * @param name        its name (from {@link MetricNames})
     * @param description one line
     * @param obj         the object that counts
     * @param count       reads the count
     * @param <T>         the object's type
     */
    public <T> void functionCounter(String name, String description, T obj, ToDoubleFunction<T> count) {
        FunctionCounter.builder(name, obj, count).description(description).register(registry);
    }

    /**
     * Records that a request left the queue after waiting.
     *
     * @param nanos time between arrival and the start of work
     */
    public void queueWait(long nanos) {
        requests.increment();
        queueWait.record(Math.max(0, nanos), TimeUnit.NANOSECONDS);
    }

    /**
     * Records a request's time from arrival to reply.
     *
     * @param nanos the time
     */
    public void serviceTime(long nanos) {
        serviceTime.record(Math.max(0, nanos), TimeUnit.NANOSECONDS);
    }

    /** Counts a request forwarded to another node. */
    public void forwarded() {
        forwarded.increment();
    }

    /** Counts a request refused because the queue was full. */
    public void overloaded() {
        overloaded.increment();
    }

    /**
     * Records how long the rules took to decide one request.
     *
     * @param nanos the evaluation time
     */
    public void ruleTime(long nanos) {
        ruleTime.record(Math.max(0, nanos), TimeUnit.NANOSECONDS);
    }

    /** Counts an evaluation in which a rule threw. */
    public void ruleFailure() {
        ruleFailures.increment();
    }

    /** Counts an alert a rule raised. */
    public void alert() {
        alerts.increment();
    }

    /** Counts a request answered with an error. */
    public void error() {
        errors.increment();
    }

    /**
     * Returns the Micrometer registry.
     *
     * @return the registry
     */
    public MeterRegistry registry() {
        return registry;
    }

    /**
     * Reads every meter of the registry, as STATUS and NODE_INFO report them.
     *
     * @return status key ({@link MetricNames}) to value, sorted; durations in microseconds
     */
    public Map<String, Double> snapshot() {
        Map<String, Double> m = new TreeMap<>();
        for (Meter meter : registry.getMeters()) {
            String stream = meter.getId().getTag(STREAM_TAG);
            String key = stream == null ? meter.getId().getName() : MetricNames.perStream(meter.getId().getName(),
                    stream);
            read(meter, key, m);
        }
        return m;
    }

    private static void read(Meter meter, String key, Map<String, Double> out) {
        if (meter instanceof Timer t) {
            for (ValueAtPercentile v : t.takeSnapshot().percentileValues()) {
                String name = v.percentile() == 0.5 ? MetricNames.p50(key) : MetricNames.p99(key);
                out.put(name, v.value(TimeUnit.MICROSECONDS));
            }
        } else if (meter instanceof Counter c) {
            out.put(key, c.count());
        } else if (meter instanceof FunctionCounter c) {
            out.put(key, c.count());
        } else if (meter instanceof Gauge g) {
            out.put(key, g.value());
        }
    }
}
