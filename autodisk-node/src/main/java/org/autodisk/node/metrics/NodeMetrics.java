package org.autodisk.node.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntSupplier;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * A node's figures. Counters are {@link LongAdder}s registered with a Micrometer registry; queue wait and
 * service time are HdrHistograms in nanoseconds, so percentiles are exact to three significant digits.
 */
public final class NodeMetrics {

    private final MeterRegistry registry;
    private final Histogram queueWait = new ConcurrentHistogram(3);
    private final Histogram serviceTime = new ConcurrentHistogram(3);
    private final LongAdder requests = new LongAdder();
    private final LongAdder forwarded = new LongAdder();
    private final LongAdder overloaded = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final Histogram ruleTime = new ConcurrentHistogram(3);
    private final LongAdder ruleFailures = new LongAdder();
    private final LongAdder alerts = new LongAdder();
    private volatile IntSupplier queueDepth = () -> 0;

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
     * @param nodeId   the node, added as a tag
     * @param registry where the meters are registered
     */
    public NodeMetrics(String nodeId, MeterRegistry registry) {
        this.registry = registry;
        counter("autodisk.requests", requests, nodeId);
        counter("autodisk.forwarded", forwarded, nodeId);
        counter("autodisk.overloaded", overloaded, nodeId);
        counter("autodisk.errors", errors, nodeId);
        counter("autodisk.rules.failures", ruleFailures, nodeId);
        counter("autodisk.rules.alerts", alerts, nodeId);
        Gauge.builder("autodisk.queue.depth", this, m -> m.queueDepth.getAsInt()).tag("node", nodeId)
                .register(registry);
    }

    private void counter(String name, LongAdder adder, String nodeId) {
        FunctionCounter.builder(name, adder, LongAdder::doubleValue).tag("node", nodeId).register(registry);
    }

    /**
     * Sets where the queue depth is read from.
     *
     * @param depth the supplier
     */
    public void queueDepth(IntSupplier depth) {
        this.queueDepth = depth;
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
     * Returns the figures for status.
     *
     * @return name to value; durations in microseconds
     */
    public Map<String, Double> snapshot() {
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("requests", requests.doubleValue());
        m.put("forwarded", forwarded.doubleValue());
        m.put("overloaded", overloaded.doubleValue());
        m.put("errors", errors.doubleValue());
        m.put("queue.depth", (double) queueDepth.getAsInt());
        m.put("queue.wait.p50.us", micros(queueWait, 50));
        m.put("queue.wait.p99.us", micros(queueWait, 99));
        m.put("service.p50.us", micros(serviceTime, 50));
        m.put("service.p99.us", micros(serviceTime, 99));
        m.put("rules.p50.us", micros(ruleTime, 50));
        m.put("rules.p99.us", micros(ruleTime, 99));
        m.put("rules.failures", ruleFailures.doubleValue());
        m.put("rules.alerts", alerts.doubleValue());
        return m;
    }

    private static double micros(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(percentile) / 1000.0;
    }
}
