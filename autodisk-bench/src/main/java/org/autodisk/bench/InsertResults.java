package org.autodisk.bench;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * What {@link InsertExperiments} measured: one list of rows per experiment, each in the order it ran. Times of
 * our runs are in microseconds (latencies) or milliseconds (totals, time stamps since the run started).
 *
 * @param started    when the run started
 * @param settings   what was run
 * @param kind       the kind of cluster, e.g. {@code local processes} or {@code containers}
 * @param nodes      where and how the nodes ran (see {@link BenchNodes#description()})
 * @param response   (a) response time of one insert, per scenario
 * @param streams    (b) time for N streams, per multiplicity, mode and N
 * @param sizes      (c) throughput per multiplicity and stream size
 * @param components (e) the parts of one insert, per traced scenario
 * @param clusters   the clusters the rows ran on, with their insert and stream counts
 * @param durationMs how long the whole run took
 */
public record InsertResults(Instant started, InsertExperiments.Settings settings, String kind, String nodes,
        List<ResponseRow> response, List<StreamsRow> streams, List<SizeRow> sizes, List<ComponentRow> components,
        List<ClusterRow> clusters, double durationMs) {

    /**
     * Mean and percentiles of a set of durations.
     *
     * @param count  how many
     * @param meanUs mean, microseconds
     * @param p50Us  median, microseconds
     * @param p99Us  99th percentile, microseconds
     * @param minUs  smallest, microseconds
     * @param maxUs  largest, microseconds
     */
    public record Summary(long count, double meanUs, double p50Us, double p99Us, double minUs, double maxUs) {

        /** No samples. */
        public static final Summary EMPTY = new Summary(0, 0, 0, 0, 0, 0);

        static Summary of(long[] nanos, int n) {
            if (n == 0) {
                return EMPTY;
            }
            long[] s = Arrays.copyOf(nanos, n);
            Arrays.sort(s);
            double sum = 0;
            for (long v : s) {
                sum += v;
            }
            return new Summary(n, sum / n / 1e3, s[rank(n, 50)] / 1e3, s[rank(n, 99)] / 1e3, s[0] / 1e3,
                    s[n - 1] / 1e3);
        }

        static Summary of(Histogram h) {
            if (h.getTotalCount() == 0) {
                return EMPTY;
            }
            return new Summary(h.getTotalCount(), h.getMean() / 1e3, h.getValueAtPercentile(50) / 1e3,
                    h.getValueAtPercentile(99) / 1e3, h.getMinValue() / 1e3, h.getMaxValue() / 1e3);
        }

        private static int rank(int n, double percentile) {
            return Math.min(n - 1, Math.max(0, (int) Math.ceil(percentile / 100 * n) - 1));
        }
    }

    /**
     * When a measurement ran, in milliseconds since the run started.
     *
     * @param startedMs  start
     * @param finishedMs end
     */
    public record Span(double startedMs, double finishedMs) {
    }

    /**
     * (a) One scenario of sequential, traced inserts.
     *
     * @param scenario  what was measured
     * @param cluster   the cluster's name
     * @param path      the nodes a request went through, entry node first
     * @param paperRef  where the paper's figure comes from, or "—"
     * @param paperMs   the paper's figure, or {@code null}
     * @param errors    failed inserts
     * @param roundTrip client-measured round trips of the successful inserts
     * @param span      when it ran
     */
    public record ResponseRow(String scenario, String cluster, String path, String paperRef, Double paperMs,
            int errors, Summary roundTrip, Span span) {
    }

    /**
     * (b) N new streams inserted one after another ({@code sequential}) or with requests in flight.
     *
     * @param multiplicity log multiplicity of the cluster
     * @param mode         {@code sequential} or {@code in-flight-K}
     * @param streams      N
     * @param errors       failed inserts
     * @param totalMs      wall time for all N
     * @param latency      per-insert round trips of the successful inserts
     * @param span         when it ran
     */
    public record StreamsRow(int multiplicity, String mode, int streams, int errors, double totalMs,
            Summary latency, Span span) {

        /**
         * Returns the mean time per insert as the paper computes it: total time over N.
         *
         * @return milliseconds per insert
         */
        public double meanPerInsertMs() {
            return totalMs / streams;
        }
    }

    /**
     * (c) Streams of one size inserted with requests in flight.
     *
     * @param multiplicity log multiplicity of the cluster
     * @param sizeBytes    value size
     * @param streams      how many streams
     * @param inFlight     requests in flight
     * @param errors       failed inserts
     * @param totalMs      wall time for all of them
     * @param latency      per-insert round trips of the successful inserts
     * @param span         when it ran
     */
    public record SizeRow(int multiplicity, int sizeBytes, int streams, int inFlight, int errors, double totalMs,
            Summary latency, Span span) {

        /**
         * Returns successful inserts per second.
         *
         * @return inserts/s
         */
        public double insertsPerSecond() {
            return (streams - errors) / (totalMs / 1e3);
        }

        /**
         * Returns the throughput as the paper gives it: kilobytes (1024 bytes) of stream data per second.
         *
         * @return KB/s
         */
        public double kbPerSecond() {
            return insertsPerSecond() * sizeBytes / 1024.0;
        }
    }

    /**
     * (e) One component of an insert, from per-request traces.
     *
     * @param scenario   the (a) scenario the traces come from
     * @param component  the component, named as in the paper's Table 5 where it has one
     * @param measured   how it is derived from the trace
     * @param paperMs    the paper's Table 5 figure, or {@code null}
     * @param ours       our samples, or {@code null} where we do not measure it
     * @param note       what differs from the paper's definition, or empty
     */
    public record ComponentRow(String scenario, String component, String measured, Double paperMs, Summary ours,
            String note) {
    }

    /**
     * A cluster the experiments ran on.
     *
     * @param name            its name in the report
     * @param dataNodes       data nodes
     * @param logNodes        log nodes
     * @param multiplicity    {@code wal.multiplicity}
     * @param store           {@code store.engine}
     * @param acked           inserts acknowledged (warm-up included), each a new stream
     * @param errors          inserts that failed
     * @param streamsStored   streams the data nodes hold as primary at the end (status)
     * @param logRecords      records the log nodes appended (status; 0 without log nodes)
     * @param recordsPerFsync records per fsync on the log nodes (group commit), 0 without log nodes
     * @param errorMessages   the first few distinct failure messages (empty without errors)
     * @param span            when the cluster ran, start-up included
     */
    public record ClusterRow(String name, int dataNodes, int logNodes, int multiplicity, String store, long acked,
            long errors, long streamsStored, long logRecords, double recordsPerFsync, List<String> errorMessages,
            Span span) {
    }
}
