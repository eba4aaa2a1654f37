package org.autodisk.bench;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The seed paper's insert-cost figures (Abe &amp; Yokota, "Overhead analysis of basic processing in autonomous
 * disks", {@code shared/seeds/004_*.txt}), transcribed as printed, with the table each comes from. Pentium II
 * 450 MHz PCs with 128 MB on a LAN, Linux 2.2, the prototype in Java; the host ran Windows NT.
 */
final class PaperFigures {

    /** §3.3: one insert, 1 data disk + 1 log disk, ms. */
    static final double RESPONSE_1D_1L_MS = 223;
    /** §3.3: one insert, 2 data disks + 1 log disk (forwarded through the non-owner), ms. */
    static final double RESPONSE_2D_1L_MS = 451;
    /** Table 3: communication and processing through the queue, no disk access, 1 data disk, ms. */
    static final double QUEUE_ONLY_1D_MS = 212;
    /** Table 3: the same with 2 data disks (forwarded), ms. */
    static final double QUEUE_ONLY_2D_MS = 438;
    /** Fig. 4: one forwarded insert estimated from the components of Table 5, ms. */
    static final double MODEL_FORWARDED_MS = 438.08;

    /** Tables 6 and 7: the stream counts. */
    static final int[] STREAMS = {100, 500, 1000, 2000, 3000, 4000, 5000};
    /** Table 6 (multiplicity 1): total time for the streams, ms. */
    static final double[] T6_TOTAL_MS = {2063, 7051, 13649, 29293, 42351, 56331, 71663};
    /** Table 6 (multiplicity 1): mean time per stream, ms. */
    static final double[] T6_MEAN_MS = {20.6, 14.1, 14.0, 14.6, 14.1, 14.1, 14.3};
    /** Table 7 (multiplicity 2): total time for the streams, ms. */
    static final double[] T7_TOTAL_MS = {3084, 11297, 21180, 47408, 66205, 90740, 114910};
    /** Table 7 (multiplicity 2): mean time per stream, ms. */
    static final double[] T7_MEAN_MS = {30.8, 22.6, 21.2, 23.7, 22.1, 22.7, 23.0};

    /** §3.6.2: streams inserted per stream size in Tables 8 and 9. */
    static final int SIZE_STREAMS = 500;
    /** Tables 8 and 9: the stream sizes, KB. */
    static final int[] SIZES_KB = {1, 2, 4, 8, 16, 32};
    /** Table 8 (multiplicity 1): time for 500 streams, ms. */
    static final double[] T8_TIME_MS = {7051, 10435, 17916, 32937, 69500, 133482};
    /** Table 8 (multiplicity 1): throughput, KB/s. */
    static final double[] T8_KB_PER_S = {70.8, 95.8, 111.6, 121.4, 117.9, 119.8};
    /** Table 9 (multiplicity 2): time for 500 streams, ms. */
    static final double[] T9_TIME_MS = {11297, 12297, 21862, 40779, 82678, 164817};
    /**
     * Table 9 (multiplicity 2): throughput, KB/s. The 1 KB figure (50.6) is printed so; 500 KB in 11,297 ms
     * would be 44.3 KB/s.
     */
    static final double[] T9_KB_PER_S = {50.6, 81.3, 91.5, 98.09, 96.8, 97.1};

    /** Table 5's component names. */
    static final String HOST_NET = "host-disk network";
    static final String DISK_NET = "disk-disk network";
    static final String QUEUE = "queue";
    static final String RULES = "rule processing";
    static final String STORE = "data disk access";
    static final String LOG = "log disk access";

    /** Table 5: component times of one insert, ms (network figures are one way, from Tables 1 and 2). */
    static final Map<String, Double> TABLE5_MS = table5();

    private PaperFigures() {
    }

    private static Map<String, Double> table5() {
        Map<String, Double> m = new LinkedHashMap<>();
        m.put(HOST_NET, 1.80);
        m.put(DISK_NET, 0.32);
        m.put(QUEUE, 213.0);
        m.put(RULES, 0.63);
        m.put(STORE, 1.23);
        m.put(LOG, 2.67);
        return Map.copyOf(m);
    }

    /** Table 6 or 7 mean per stream for this count, or {@code null} where the paper has none. */
    static Double meanPerStreamMs(int multiplicity, int streams) {
        int i = indexOf(STREAMS, streams);
        return i < 0 ? null : (multiplicity == 1 ? T6_MEAN_MS : T7_MEAN_MS)[i];
    }

    /** Table 6 or 7 total for this count, or {@code null}. */
    static Double totalMs(int multiplicity, int streams) {
        int i = indexOf(STREAMS, streams);
        return i < 0 ? null : (multiplicity == 1 ? T6_TOTAL_MS : T7_TOTAL_MS)[i];
    }

    /** Table 8 or 9 throughput for this size, or {@code null}. */
    static Double kbPerSecond(int multiplicity, int sizeBytes) {
        int i = sizeIndex(sizeBytes);
        return i < 0 ? null : (multiplicity == 1 ? T8_KB_PER_S : T9_KB_PER_S)[i];
    }

    /** Table 8 or 9 time for 500 streams of this size, or {@code null}. */
    static Double sizeTimeMs(int multiplicity, int sizeBytes) {
        int i = sizeIndex(sizeBytes);
        return i < 0 ? null : (multiplicity == 1 ? T8_TIME_MS : T9_TIME_MS)[i];
    }

    /** The table a multiplicity's stream-count figures come from. */
    static String streamsTable(int multiplicity) {
        return multiplicity == 1 ? "Table 6" : "Table 7";
    }

    /** The table a multiplicity's stream-size figures come from. */
    static String sizesTable(int multiplicity) {
        return multiplicity == 1 ? "Table 8" : "Table 9";
    }

    private static int sizeIndex(int sizeBytes) {
        return sizeBytes % 1024 == 0 ? indexOf(SIZES_KB, sizeBytes / 1024) : -1;
    }

    private static int indexOf(int[] values, int v) {
        for (int i = 0; i < values.length; i++) {
            if (values[i] == v) {
                return i;
            }
        }
        return -1;
    }
}
