package org.autodisk.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.autodisk.cli.InsertExperiments;
import org.autodisk.cli.InsertOutput;
import org.autodisk.cli.InsertResults;
import org.autodisk.cli.InsertResults.ClusterRow;
import org.autodisk.cli.InsertResults.ComponentRow;
import org.autodisk.cli.InsertResults.ResponseRow;
import org.autodisk.cli.InsertResults.SizeRow;
import org.autodisk.cli.InsertResults.Span;
import org.autodisk.cli.InsertResults.StreamsRow;
import org.autodisk.cli.InsertResults.Summary;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the seed paper's insert-cost experiments ({@code autodisk bench insert}) at the paper's sizes only - up
 * to 5000 streams and 32 KB - against local clusters of node processes, writes the CSV files and the report to
 * {@code target/insert-cost/}, and checks that the measurements were produced and agree with each other. It
 * asserts no timing: the figures are for the report.
 */
class InsertCostIT {

    private static final int SAMPLES = 300;
    private static final int WARMUP = 2000;
    private static final int SIZE_STREAMS = 500;
    private static final int IN_FLIGHT = 16;
    private static final Path OUT = Path.of("target", "insert-cost");

    @TempDir
    static Path work;

    private static InsertExperiments.Settings settings;
    private static InsertResults results;

    @BeforeAll
    static void runExperiments() throws Exception {
        settings = new InsertExperiments.Settings(SAMPLES, WARMUP, InsertExperiments.Settings.SEED_COUNTS,
                InsertExperiments.Settings.SEED_SIZES, SIZE_STREAMS, IN_FLIGHT, freeBase(),
                "limits.max-value-bytes: 33554432\n");
        results = new InsertExperiments(settings, work, InsertExperiments.Progress.NONE, false).run();
        InsertOutput.write(results, OUT, "InsertCostIT (seed sizes, " + SAMPLES + " samples, " + SIZE_STREAMS
                + " streams per size)", InsertOutput.commonNotes());
    }

    @Test
    void responseTimeScenariosHaveEverySampleAndNoError() {
        assertThat(results.response()).extracting(ResponseRow::path)
                .containsExactly("d1", "d1 -> d2", "d1", "d1 -> d2", "d1", "d1 -> d2");
        assertThat(results.response()).filteredOn(r -> r.paperMs() != null).extracting(ResponseRow::paperMs)
                .containsExactly(223.0, 451.0, 212.0, 438.0);
        for (ResponseRow r : results.response()) {
            assertThat(r.errors()).as(r.scenario()).isZero();
            assertConsistent(r.scenario(), r.roundTrip(), SAMPLES);
        }
    }

    @Test
    void streamCountsRanForBothMultiplicitiesAndModes() {
        List<String> expected = new ArrayList<>();
        for (int m = 1; m <= 2; m++) {
            for (int n : InsertExperiments.Settings.SEED_COUNTS) {
                expected.add(m + "/sequential/" + n);
                expected.add(m + "/in-flight-" + IN_FLIGHT + "/" + n);
            }
        }
        assertThat(results.streams()).extracting(r -> r.multiplicity() + "/" + r.mode() + "/" + r.streams())
                .containsExactlyElementsOf(expected);
        for (StreamsRow r : results.streams()) {
            String what = "m=" + r.multiplicity() + " " + r.mode() + " N=" + r.streams();
            assertThat(r.errors()).as(what).isZero();
            assertThat(r.totalMs()).as(what).isPositive();
            assertThat(r.meanPerInsertMs()).as(what).isCloseTo(r.totalMs() / r.streams(), within(1e-9));
            assertConsistent(what, r.latency(), r.streams());
            assertThat(r.latency().meanUs() / 1e3).as(what + ": no insert outlasts the whole run")
                    .isLessThanOrEqualTo(r.totalMs());
        }
    }

    @Test
    void streamSizesRanForBothMultiplicities() {
        assertThat(results.sizes()).extracting(r -> r.multiplicity() + "/" + r.sizeBytes()).containsExactly(
                "1/1024", "1/2048", "1/4096", "1/8192", "1/16384", "1/32768",
                "2/1024", "2/2048", "2/4096", "2/8192", "2/16384", "2/32768");
        for (SizeRow r : results.sizes()) {
            String what = "m=" + r.multiplicity() + " " + r.sizeBytes() + " B";
            assertThat(r.errors()).as(what).isZero();
            assertThat(r.streams()).as(what).isEqualTo(SIZE_STREAMS);
            assertThat(r.inFlight()).as(what).isEqualTo(IN_FLIGHT);
            assertThat(r.totalMs()).as(what).isPositive();
            assertThat(r.kbPerSecond()).as(what)
                    .isCloseTo(r.insertsPerSecond() * r.sizeBytes() / 1024.0, within(1e-6));
            assertConsistent(what, r.latency(), SIZE_STREAMS);
        }
    }

    @Test
    void componentsOfEachTracedScenarioAddUpToItsRoundTrip() {
        Map<String, List<ComponentRow>> byScenario = results.components().stream()
                .collect(Collectors.groupingBy(ComponentRow::scenario));
        assertThat(byScenario).hasSize(results.response().size());
        for (ResponseRow r : results.response()) {
            List<ComponentRow> parts = byScenario.get(r.scenario());
            double sum = 0;
            ComponentRow total = null;
            for (ComponentRow c : parts) {
                if (c.component().startsWith("total")) {
                    total = c;
                } else if (c.ours() != null) {
                    assertThat(c.ours().count()).as(r.scenario() + " / " + c.component()).isEqualTo(SAMPLES);
                    sum += c.ours().meanUs();
                }
            }
            assertThat(total).as(r.scenario()).isNotNull();
            assertThat(total.ours().meanUs()).as(r.scenario()).isCloseTo(r.roundTrip().meanUs(), within(1e-6));
            assertThat(sum).as(r.scenario() + ": parts add up to the round trip")
                    .isCloseTo(total.ours().meanUs(), within(1e-3));
            assertThat(parts).as(r.scenario()).anyMatch(c -> c.component().equals("rule processing")
                    && c.ours() == null && c.measured().startsWith("n/a"));
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
        long warmups = results.clusters().size() * (long) (WARMUP + Math.min(1000, WARMUP / 10));
        assertThat(measured).as("acknowledged inserts = measured + warm-up").isEqualTo(expected + warmups);
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
        assertThat(Files.readAllLines(OUT.resolve("a-response.csv"))).hasSize(results.response().size() + 1);
        assertThat(Files.readAllLines(OUT.resolve("b-streams.csv"))).hasSize(results.streams().size() + 1);
        assertThat(Files.readAllLines(OUT.resolve("c-sizes.csv"))).hasSize(results.sizes().size() + 1);
        assertThat(Files.readAllLines(OUT.resolve("e-components.csv"))).hasSize(results.components().size() + 1);
        assertThat(Files.readAllLines(OUT.resolve("clusters.csv"))).hasSize(results.clusters().size() + 1);
        String report = Files.readString(OUT.resolve("report.md"));
        assertThat(report).contains("## (a)", "## (b)", "## (c)", "## (d)", "## (e)", "| 223 |", "| 451 |",
                "| 14.3 |", "n/a (rules engine not yet in the path)");
    }

    private static void assertConsistent(String what, Summary s, long expectedCount) {
        assertThat(s.count()).as(what + ": samples").isEqualTo(expectedCount);
        assertThat(s.minUs()).as(what + ": min").isPositive();
        assertThat(s.p50Us()).as(what + ": min <= p50 <= p99 <= max").isBetween(s.minUs(), s.p99Us());
        assertThat(s.maxUs()).as(what + ": max").isGreaterThanOrEqualTo(s.p99Us());
        assertThat(s.meanUs()).as(what + ": mean").isBetween(s.minUs(), s.maxUs());
    }

    private static int freeBase() throws IOException {
        for (int attempt = 0; attempt < 50; attempt++) {
            int base;
            try (ServerSocket s = new ServerSocket(0)) {
                base = s.getLocalPort();
            }
            if (base < 65000 && allFree(base)) {
                return base;
            }
        }
        throw new IOException("no free port range for the clusters found");
    }

    private static boolean allFree(int base) {
        for (int cluster = 0; cluster < 4; cluster++) {
            for (int node = 0; node < 4; node++) {
                try (ServerSocket s = new ServerSocket(base + 10 * cluster + node)) {
                    s.setReuseAddress(true);
                } catch (IOException e) {
                    return false;
                }
            }
        }
        return true;
    }
}
