package org.autodisk.bench;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The table of {@code bench compare}: per scenario the medians over the rounds of AutoDisk's and Redis's p50, p99
 * and throughput, and AutoDisk / Redis ratios. Each round of a system is {@code {p50 µs, p99 µs, per second}}.
 */
final class CompareTable {

    /** One request at a time: AutoDisk to the range's owner, Redis over one connection. */
    static final String SEQUENTIAL = "1 in flight (AutoDisk: to the owner)";

    private CompareTable() {
    }

    /** AutoDisk's client talks to one node, which forwards what it does not own; Redis routes by slot. */
    static String anyNode(int inFlight) {
        return inFlight + " in flight (AutoDisk: through one node)";
    }

    /** AutoDisk's client routes each insert to its owner, as Redis's does. */
    static String direct(int inFlight) {
        return inFlight + " in flight (AutoDisk: direct routing)";
    }

    /**
     * Renders the table.
     *
     * @param autodisk AutoDisk's rounds per scenario
     * @param redis    Redis's rounds per scenario (direct-routing rows compare with the same window's Redis row)
     * @param inFlight the windows of the load rows
     * @return Markdown
     */
    static String markdown(Map<String, List<double[]>> autodisk, Map<String, List<double[]>> redis,
            List<Integer> inFlight) {
        StringBuilder b = new StringBuilder("| scenario | AutoDisk p50 µs | p99 µs | inserts/s | Redis p50 µs "
                + "| p99 µs | SETs/s | p50 AutoDisk/Redis | throughput AutoDisk/Redis |\n"
                + "|---|---|---|---|---|---|---|---|---|\n");
        row(b, SEQUENTIAL, autodisk.get(SEQUENTIAL), redis.get(SEQUENTIAL));
        for (int w : inFlight) {
            row(b, anyNode(w), autodisk.get(anyNode(w)), redis.get(anyNode(w)));
            row(b, direct(w), autodisk.get(direct(w)), redis.get(anyNode(w)));
        }
        return b.toString();
    }

    private static void row(StringBuilder b, String name, List<double[]> a, List<double[]> r) {
        if (a == null || r == null) {
            return;
        }
        double[] am = medians(a);
        double[] rm = medians(r);
        b.append(String.format("| %s | %.0f | %.0f | %s | %.0f | %.0f | %s | %.2f | %s |%n", name, am[0], am[1],
                perSecond(am[2]), rm[0], rm[1], perSecond(rm[2]), am[0] / rm[0],
                am[2] > 0 && rm[2] > 0 ? String.format("%.2f", am[2] / rm[2]) : "-"));
    }

    private static String perSecond(double v) {
        return v > 0 ? String.format("%,.0f", v) : "-";
    }

    /** Median of each column over the rounds (the mean of the middle two for an even count). */
    static double[] medians(List<double[]> rounds) {
        int columns = rounds.get(0).length;
        double[] m = new double[columns];
        for (int c = 0; c < columns; c++) {
            double[] col = new double[rounds.size()];
            for (int i = 0; i < rounds.size(); i++) {
                col[i] = rounds.get(i)[c];
            }
            Arrays.sort(col);
            int n = col.length;
            m[c] = n % 2 == 1 ? col[n / 2] : (col[n / 2 - 1] + col[n / 2]) / 2;
        }
        return m;
    }
}
