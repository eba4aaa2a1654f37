package org.autodisk.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.stream.Collectors;
import org.autodisk.bench.BenchNodes;
import org.autodisk.bench.InsertExperiments;
import org.autodisk.bench.InsertOutput;
import org.autodisk.bench.InsertResults.ClusterRow;
import org.autodisk.bench.InsertResults.ComponentRow;
import org.autodisk.bench.InsertResults.ResponseRow;
import org.autodisk.bench.InsertResults.SizeRow;
import org.autodisk.bench.InsertResults.Span;
import org.autodisk.bench.InsertResults.StreamsRow;
import org.autodisk.bench.InsertResults.Summary;
import org.autodisk.bench.InsertResults;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the seed paper's insert-cost experiments ({@code autodisk bench insert}) on the clusters a subclass starts,
 * writes the CSV files, the charts and the report, and checks that the measurements were produced and agree with
 * each other. It asserts no timing: the figures are for the report. Tagged {@code slow} (minutes):
 * {@code ./mvnw verify -Dsurefire.excludedGroups=slow} leaves it out; CI runs it.
 */
@Tag("slow")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class InsertCostChecks {

    /** The node configuration of every cluster: the value limit of {@code autodisk bench insert}. */
    static final String VALUE_LIMIT_YAML = "limits.max-value-bytes: 33554432\n";

    private static final int SAMPLES = 100;
    private static final int WARMUP = 300;
    /** The stream counts the ITs run: the seed's smallest (the full list is `bench insert`'s; CI time is short). */
    private static final List<Integer> COUNTS = List.of(100);
    /** The stream sizes the ITs run: the seed's smallest and largest. */
    private static final List<Integer> SIZES = List.of(1024, 32 * 1024);
    private static final int SIZE_STREAMS = 100;
    private static final int IN_FLIGHT = 16;

    private final String kind;
    private InsertExperiments.Settings settings;
    private InsertResults results;

    /**
     * Names the kind of cluster the subclass starts.
     *
     * @param kind what {@link BenchNodes#kind()} returns, checked in the report's title
     */
    InsertCostChecks(String kind) {
        this.kind = kind;
    }

    /**
     * The seed's smallest count, its smallest and largest size and few samples: what the ITs run by default.
     *
     * @param basePort the first port of local clusters
     * @return the settings
     */
    static InsertExperiments.Settings seedSizes(int basePort) {
        return new InsertExperiments.Settings(SAMPLES, WARMUP, COUNTS, SIZES, SIZE_STREAMS, IN_FLIGHT, basePort,
                VALUE_LIMIT_YAML);
    }

    /**
     * The report's command line for {@link #seedSizes}.
     *
     * @param test the test's class name
     * @return what ran
     */
    static String seedSizesCommand(String test) {
        return test + " (counts " + COUNTS + ", sizes " + SIZES + ", " + SAMPLES + " samples, " + SIZE_STREAMS
                + " streams per size)";
    }

    /** @return what to run */
    abstract InsertExperiments.Settings settings() throws IOException;

    /**
     * Returns what starts the nodes of each cluster.
     *
     * @param dir      a temporary directory for the clusters' files
     * @param settings what runs
     * @return the launcher
     */
    abstract BenchNodes nodes(Path dir, InsertExperiments.Settings settings);

    /** @return where the CSV files, charts and report go */
    abstract Path out();

    /** @return the command line for the report */
    abstract String command();

    @BeforeAll
    void runExperiments(@TempDir Path work) throws Exception {
        System.setProperty("java.awt.headless", "true");
        settings = settings();
        results = new InsertExperiments(settings, nodes(work, settings), InsertExperiments.Progress.NONE).run();
        List<String> notes = new ArrayList<>(List.of(InsertOutput.configurationNote(settings)));
        notes.addAll(InsertOutput.commonNotes());
        InsertOutput.write(results, out(), command(), notes);
    }

    @Test
    void responseTimeScenariosHaveEverySampleAndNoError() {
        assertThat(results.response()).extracting(ResponseRow::path)
                .containsExactly("d1", "d1 -> d2", "d1", "d1 -> d2", "d1", "d1 -> d2");
        assertThat(results.response()).filteredOn(r -> r.paperMs() != null).extracting(ResponseRow::paperMs)
                .containsExactly(223.0, 451.0, 212.0, 438.0);
        for (ResponseRow r : results.response()) {
            assertThat(r.errors()).as(r.scenario()).isZero();
            assertConsistent(r.scenario(), r.roundTrip(), settings.samples());
        }
    }

    @Test
    void streamCountsRanForBothMultiplicitiesAndModes() {
        List<String> expected = perMultiplicity(settings.streamCounts(),
                (m, n) -> List.of(m + "/sequential/" + n, m + "/in-flight-" + settings.inFlight() + "/" + n));
        assertThat(results.streams()).extracting(r -> r.multiplicity() + "/" + r.mode() + "/" + r.streams())
                .containsExactlyElementsOf(expected);
        for (StreamsRow r : results.streams()) {
            String what = "m=" + r.multiplicity() + " " + r.mode() + " N=" + r.streams();
            assertThat(r.errors()).as(what).isZero();
            assertThat(r.totalMs()).as(what).isPositive();
            assertConsistent(what, r.latency(), r.streams());
            assertThat(r.latency().meanUs() / 1e3).as(what + ": no insert outlasts the whole run")
                    .isLessThanOrEqualTo(r.totalMs());
        }
    }

    @Test
    void streamSizesRanForBothMultiplicities() {
        List<String> expected = perMultiplicity(settings.sizesBytes(), (m, size) -> List.of(m + "/" + size));
        assertThat(results.sizes()).extracting(r -> r.multiplicity() + "/" + r.sizeBytes())
                .containsExactlyElementsOf(expected);
        for (SizeRow r : results.sizes()) {
            String what = "m=" + r.multiplicity() + " " + r.sizeBytes() + " B";
            int streams = settings.streamsOfSize(r.sizeBytes());
            assertThat(r.errors()).as(what).isZero();
            assertThat(r.streams()).as(what).isEqualTo(streams);
            assertThat(r.inFlight()).as(what).isEqualTo(settings.inFlight());
            assertThat(r.totalMs()).as(what).isPositive();
            assertConsistent(what, r.latency(), streams);
            assertThat(r.latency().meanUs() / 1e3).as(what + ": no insert outlasts the whole run")
                    .isLessThanOrEqualTo(r.totalMs());
        }
    }

    @Test
    void everyNodesMeasuredPartsFitInItsTotalAndEachIsMeasured() {
        Map<String, List<ComponentRow>> byScenario = results.components().stream()
                .collect(Collectors.groupingBy(ComponentRow::scenario));
        assertThat(byScenario).hasSize(results.response().size());
        for (ResponseRow r : results.response()) {
            List<ComponentRow> parts = byScenario.get(r.scenario());
            for (ComponentRow c : parts) {
                if (c.ours() != null) {
                    assertThat(c.ours().count()).as(r.scenario() + " / " + c.component()).isEqualTo(settings.samples());
                }
                if (c.component().startsWith("other in") || c.component().equals("host-disk network")) {
                    // what is left of a node's total (or of the round trip) after the parts measured inside it: a
                    // negative rest in any sample means a part was counted twice or outside its node's total
                    assertThat(c.ours().minUs()).as(r.scenario() + " / " + c.component() + ": the rest after the "
                            + "measured parts is never negative").isGreaterThanOrEqualTo(0);
                }
            }
            assertThat(parts).as(r.scenario()).filteredOn(c -> c.component().equals("rule processing"))
                    .singleElement().satisfies(c -> assertThat(c.ours().meanUs()).as("rule time").isPositive());
            boolean forwarded = r.path().contains("->");
            assertThat(parts.stream().anyMatch(c -> c.component().equals("disk-disk network")))
                    .as(r.scenario()).isEqualTo(forwarded);
            for (ComponentRow c : parts) {
                if (c.component().startsWith("queue") || c.component().endsWith("access")) {
                    assertThat(c.ours().meanUs()).as(r.scenario() + " / " + c.component()).isPositive();
                }
            }
        }
    }

    @Test
    void everyInsertBecameAStreamAndIsLogged() {
        assertThat(results.clusters()).extracting(ClusterRow::dataNodes, ClusterRow::logNodes)
                .containsExactly(tuple(1, 1), tuple(2, 1), tuple(2, 2), tuple(2, 0));
        long measured = 0;
        for (ClusterRow c : results.clusters()) {
            assertThat(c.errors()).as(c.name() + ": " + c.errorMessages()).isZero();
            assertThat(c.streamsStored()).as(c.name() + ": one stream per acknowledged insert").isEqualTo(c.acked());
            if (c.logNodes() > 0) {
                assertThat(c.logRecords()).as(c.name() + ": every insert logged on m log nodes")
                        .isEqualTo(c.multiplicity() * c.acked());
            }
            measured += c.acked();
        }
        long expected = 0;
        expected += results.response().stream().mapToLong(r -> r.roundTrip().count()).sum();
        expected += results.streams().stream().mapToLong(StreamsRow::streams).sum();
        expected += results.sizes().stream().mapToLong(SizeRow::streams).sum();
        assertThat(measured).as("the clusters acknowledged every measured insert (and the warm-ups)")
                .isGreaterThanOrEqualTo(expected);
    }

    @Test
    void timestampsAreMonotoneAndInsideTheRun() {
        List<List<Span>> tables = List.of(results.response().stream().map(ResponseRow::span).toList(),
                results.streams().stream().map(StreamsRow::span).toList(),
                results.sizes().stream().map(SizeRow::span).toList(),
                results.clusters().stream().map(ClusterRow::span).toList());
        for (List<Span> spans : tables) {
            double last = 0;
            for (Span s : spans) {
                assertThat(s.startedMs()).isGreaterThanOrEqualTo(last);
                assertThat(s.finishedMs()).isGreaterThanOrEqualTo(s.startedMs())
                        .isLessThanOrEqualTo(results.durationMs());
                last = s.finishedMs();
            }
        }
        for (StreamsRow r : results.streams()) {
            Span cluster = results.clusters().get(r.multiplicity()).span();
            assertThat(r.span().startedMs()).isBetween(cluster.startedMs(), cluster.finishedMs());
        }
    }

    @Test
    void reportAndCsvFilesWereWritten() throws IOException {
        assertThat(Files.readAllLines(out().resolve("a-response.csv"))).hasSize(results.response().size() + 1);
        assertThat(Files.readAllLines(out().resolve("b-streams.csv"))).hasSize(results.streams().size() + 1);
        assertThat(Files.readAllLines(out().resolve("c-sizes.csv"))).hasSize(results.sizes().size() + 1);
        assertThat(Files.readAllLines(out().resolve("e-components.csv"))).hasSize(results.components().size() + 1);
        assertThat(Files.readAllLines(out().resolve("clusters.csv"))).hasSize(results.clusters().size() + 1);
        String report = Files.readString(out().resolve("report.md"));
        assertThat(report).startsWith("# Insert cost: seed 004's experiments on AutoDisk, " + kind + "\n")
                .contains("- **Ours (" + kind + "):**");
        for (String chart : List.of("b-time-per-insert.png", "c-throughput.png", "d-multiplicity.png")) {
            assertThat(out().resolve(chart)).as("chart").isNotEmptyFile();
        }
        assertThat(report).contains("## (a)", "## (b)", "## (c)", "## (d)", "## (e)", "| 223 |", "| 451 |",
                "| 20.6 |", "| rule processing |");
    }

    /** The row keys expected for multiplicity 1, then 2, each for every value in order. */
    private static List<String> perMultiplicity(List<Integer> values,
            BiFunction<Integer, Integer, List<String>> keys) {
        List<String> all = new ArrayList<>();
        for (int m = 1; m <= 2; m++) {
            for (int v : values) {
                all.addAll(keys.apply(m, v));
            }
        }
        return all;
    }

    private static void assertConsistent(String what, Summary s, long expectedCount) {
        assertThat(s.count()).as(what + ": samples").isEqualTo(expectedCount);
        assertThat(s.minUs()).as(what + ": min").isPositive();
        assertThat(s.p50Us()).as(what + ": min <= p50 <= p99 <= max").isBetween(s.minUs(), s.p99Us());
        assertThat(s.maxUs()).as(what + ": max").isGreaterThanOrEqualTo(s.p99Us());
        assertThat(s.meanUs()).as(what + ": mean").isBetween(s.minUs(), s.maxUs());
    }
}
