package org.autodisk.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code bench compare} reads redis-benchmark's CSV by its header and prints medians with AutoDisk / Redis ratios. */
class CompareTableTest {

    private static final String CSV = """
            "test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms","p99_latency_ms",\
            "max_latency_ms"
            "SET","39904.22","1.181","0.128","0.167","4.007","0.300","9.623"
            """;

    @Test
    void readsRateAndPercentilesByColumnName() throws IOException {
        RedisCluster.Result r = RedisCluster.Result.parseCsv("noise before\n" + CSV);
        assertThat(r.rps()).isEqualTo(39904.22);
        assertThat(r.p50Micros()).isEqualTo(167.0);
        assertThat(r.p99Micros()).isEqualTo(300.0);
    }

    @Test
    void outputWithoutTheSetLineOrWithAnUnreadableNumberIsASpecificError() {
        assertThatThrownBy(() -> RedisCluster.Result.parseCsv("ERROR: connection refused"))
                .hasMessageContaining("no CSV header and SET line").hasMessageContaining("connection refused");
        assertThatThrownBy(() -> RedisCluster.Result.parseCsv(CSV.replace("39904.22", "fast")))
                .hasMessageContaining("rps is not a number: fast");
        assertThatThrownBy(() -> RedisCluster.Result.parseCsv(CSV.replace("p99_latency_ms", "p999")))
                .hasMessageContaining("no column p99_latency_ms");
    }

    @Test
    void mediansOverRoundsAndRatiosPerScenario() {
        assertThat(CompareTable.medians(List.of(new double[] {3, 30}, new double[] {1, 10}, new double[] {2, 50})))
                .containsExactly(2, 30);
        assertThat(CompareTable.medians(List.of(new double[] {4}, new double[] {1}))).containsExactly(2.5);
        Map<String, List<double[]>> autodisk = new LinkedHashMap<>();
        Map<String, List<double[]>> redis = new LinkedHashMap<>();
        autodisk.put(CompareTable.SEQUENTIAL, List.of(new double[] {300, 900, 0}, new double[] {500, 1000, 0}));
        redis.put(CompareTable.SEQUENTIAL, List.of(new double[] {200, 300, 4000}, new double[] {200, 500, 5000}));
        autodisk.put(CompareTable.anyNode(50), List.of(new double[] {2000, 9000, 20000}));
        autodisk.put(CompareTable.direct(50), List.of(new double[] {1500, 8000, 30000}));
        redis.put(CompareTable.anyNode(50), List.of(new double[] {1000, 3000, 40000}));
        String table = CompareTable.markdown(autodisk, redis, List.of(50));
        assertThat(table)
                .contains("| " + CompareTable.SEQUENTIAL + " | 400 | 950 | - | 200 | 400 | 4,500 | 2.00 | - |")
                .contains("| " + CompareTable.anyNode(50)
                        + " | 2000 | 9000 | 20,000 | 1000 | 3000 | 40,000 | 2.00 | 0.50 |")
                .contains("| " + CompareTable.direct(50)
                        + " | 1500 | 8000 | 30,000 | 1000 | 3000 | 40,000 | 1.50 | 0.75 |");
    }
}
