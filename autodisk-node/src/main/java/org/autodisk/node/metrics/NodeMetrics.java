package org.autodisk.node.metrics;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;
import org.autodisk.core.cluster.MetricNames;

/**
 * A node's figures, all registered in one Micrometer registry under the names of {@link MetricNames} (tagged with
 * the node id, and with the stream for per-stream meters). Everything that reports figures - STATUS and NODE_INFO,
 * the load reports the rules see - reads them from the registry through {@link #snapshot()}. The request-path
 * latencies are recorded into HdrHistograms (tens of nanoseconds a value, on every request) and appear in the
 * registry as Micrometer shows a timer with client-side percentiles: a function timer (count, total time) and
 * the gauges {@code name.percentile} tagged {@code phi=0.5} and {@code phi=0.99}, since start, exact to three
 * significant digits.
 */
public final class NodeMetrics {

    /** The tag naming the log stream (data node) of a per-stream meter. */
    public static final String STREAM_TAG = "stream";

    private static final String PERCENTILE = ".percentile";
    private static final String PHI_TAG = "phi";
    private static final double[] PERCENTILES = {0.5, 0.99};

    private final MeterRegistry registry;
    private final Counter requests;
    private final Counter forwarded;
    private final Counter overloaded;
    private final Counter errors;
    private final Counter ruleFailures;
    private final Counter alerts;
    private final Histogram queueWait;
    private final Histogram serviceTime;
    private final Histogram ruleTime;

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
        queueWait = latency(MetricNames.QUEUE_WAIT, "time from arrival to the start of work");
        serviceTime = latency(MetricNames.SERVICE, "time from arrival to the reply");
        ruleTime = latency(MetricNames.RULES, "time the rules took to decide a request");
    }

    /**
     * Registers a counter.
     *
     * @param name        its name (from {@link MetricNames})
     * @param description one line
     * @return the counter
     */
    public Counter counter(String name, String description) {
        return Counter.builder(name).description(description).register(registry);
    }

    private Histogram latency(String name, String description) {
        Histogram h = new ConcurrentHistogram(3);
        latency(name, description, h);
        return h;
    }

    /**
     * Registers a latency histogram kept elsewhere, recorded in nanoseconds, as the request-path latencies are.
     *
     * @param name        its name (from {@link MetricNames})
     * @param description one line
     * @param h           the histogram
     */
    public void latency(String name, String description, Histogram h) {
        FunctionTimer.builder(name, h, Histogram::getTotalCount, x -> x.getMean() * x.getTotalCount(),
                TimeUnit.NANOSECONDS).description(description).register(registry);
        for (double phi : PERCENTILES) {
            Gauge.builder(name + PERCENTILE, h, x -> x.getTotalCount() == 0 ? 0
                    : x.getValueAtPercentile(phi * 100) / 1e9).tag(PHI_TAG, String.valueOf(phi)).baseUnit("seconds")
                    .description(description + ", percentile since start").register(registry);
        }
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
     * @param name        its name (from {@link MetricNames})
     * @param description one line
     * @param stream      the data node whose log it describes
     * @param value       read when the gauge is read
     */
    public void streamGauge(String name, String description, String stream, Supplier<Number> value) {
        Gauge.builder(name, value).description(description).tag(STREAM_TAG, stream).register(registry);
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
        queueWait.recordValue(Math.max(0, nanos));
    }

    /**
     * Records a request's time from arrival to reply.
     *
     * @param nanos the time
     */
    public void serviceTime(long nanos) {
        serviceTime.recordValue(Math.max(0, nanos));
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
        ruleTime.recordValue(Math.max(0, nanos));
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
        return snapshot(true);
    }

    /**
     * Reads every meter of the registry, or all but the latency percentiles (the costly part: each walks a histogram).
     *
     * @param percentiles whether to read the percentiles
     * @return status key ({@link MetricNames}) to value, sorted; durations in microseconds
     */
    public Map<String, Double> snapshot(boolean percentiles) {
        Map<String, Double> m = new TreeMap<>();
        for (Meter meter : registry.getMeters()) {
            if (!percentiles && meter.getId().getTag(PHI_TAG) != null) {
                continue;
            }
            String stream = meter.getId().getTag(STREAM_TAG);
            String key = stream == null ? meter.getId().getName() : MetricNames.perStream(meter.getId().getName(),
                    stream);
            read(meter, key, m);
        }
        return m;
    }

    private static void read(Meter meter, String key, Map<String, Double> out) {
        String phi = meter.getId().getTag(PHI_TAG);
        if (phi != null && key.endsWith(PERCENTILE) && meter instanceof Gauge g) {
            String timer = key.substring(0, key.length() - PERCENTILE.length());
            out.put(Double.parseDouble(phi) == 0.5 ? MetricNames.p50(timer) : MetricNames.p99(timer), g.value() * 1e6);
        } else if (meter instanceof Counter c) {
            out.put(key, c.count());
        } else if (meter instanceof FunctionCounter c) {
            out.put(key, c.count());
        } else if (meter instanceof Gauge g) {
            out.put(key, g.value());
        }
    }
}
