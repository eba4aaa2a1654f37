package org.autodisk.node.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Meter;
import java.util.concurrent.atomic.AtomicLong;
import org.autodisk.core.cluster.MetricNames;
import org.junit.jupiter.api.Test;

/** Everything a node reports is read from its Micrometer registry, under the names of {@link MetricNames}. */
class NodeMetricsTest {

    @Test
    void theSnapshotReadsEveryMeterOfTheRegistry() {
        NodeMetrics m = new NodeMetrics("d7");
        AtomicLong entries = new AtomicLong(41);
        m.gauge(MetricNames.LEDGER_ENTRIES_PER_SYNC, "entries per sync", entries::get);
        m.streamGauge(MetricNames.BACKUP_LAG, "lag", "d2", () -> 5);
        m.streamGauge(MetricNames.BACKUP_LAG, "lag", "d3", () -> 0);
        m.queueWait(2_000_000);
        m.queueWait(4_000_000);
        m.forwarded();
        m.alert();
        entries.set(42);

        assertThat(m.snapshot())
                .containsEntry(MetricNames.REQUESTS, 2.0)
                .containsEntry(MetricNames.FORWARDED, 1.0)
                .containsEntry(MetricNames.RULE_ALERTS, 1.0)
                .containsEntry(MetricNames.LEDGER_ENTRIES_PER_SYNC, 42.0)
                .containsEntry(MetricNames.perStream(MetricNames.BACKUP_LAG, "d2"), 5.0)
                .containsEntry(MetricNames.perStream(MetricNames.BACKUP_LAG, "d3"), 0.0)
                .containsKeys(MetricNames.p50(MetricNames.QUEUE_WAIT), MetricNames.p99(MetricNames.QUEUE_WAIT),
                        MetricNames.p50(MetricNames.SERVICE), MetricNames.p50(MetricNames.RULES));
        assertThat(m.snapshot().get(MetricNames.p99(MetricNames.QUEUE_WAIT))).as("µs").isBetween(3_000.0, 5_000.0);
        assertThat(m.registry().getMeters()).extracting(meter -> meter.getId().getTag("node")).containsOnly("d7");
        assertThat(m.registry().getMeters()).extracting(Meter::getId).extracting(id -> id.getName())
                .contains(MetricNames.REQUESTS, MetricNames.QUEUE_WAIT, MetricNames.BACKUP_LAG);
    }

    @Test
    void aBriefSnapshotHasTheCountersAndGaugesButNoPercentiles() {
        NodeMetrics m = new NodeMetrics("d7");
        m.queueWait(2_000_000);
        m.forwarded();

        assertThat(m.snapshot(false)).containsEntry(MetricNames.REQUESTS, 1.0)
                .containsEntry(MetricNames.FORWARDED, 1.0)
                .doesNotContainKeys(MetricNames.p50(MetricNames.QUEUE_WAIT), MetricNames.p99(MetricNames.QUEUE_WAIT))
                .allSatisfy((key, value) -> assertThat(key).doesNotContain("p50", "p99"));
        assertThat(m.snapshot(true)).containsKeys(MetricNames.p50(MetricNames.QUEUE_WAIT));
    }
}
