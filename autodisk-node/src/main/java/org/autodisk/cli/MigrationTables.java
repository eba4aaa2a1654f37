package org.autodisk.cli;

import java.util.Map;
import org.autodisk.core.cluster.MigrationStatus;
import org.autodisk.core.cluster.MigrationsReport;

/** Renders migrations as a text table and a progress line. */
final class MigrationTables {

    private static final String ROW = "%-5s %-6s %-24s %-7s %-13s %-19s %10s %12s %12s %8s%n";

    private MigrationTables() {
    }

    /**
     * The migrations under way.
     *
     * @param r          the report
     * @param rangeBytes bytes each range holds on its owner (missing: unknown)
     * @return the table
     */
    static String table(MigrationsReport r, Map<Integer, Long> rangeBytes) {
        StringBuilder b = new StringBuilder();
        b.append(r.migrations().size()).append(" migrations under way at metadata v").append(r.version())
                .append(", reported by ").append(r.reportedBy()).append('\n');
        if (r.migrations().isEmpty()) {
            return b.toString();
        }
        b.append(String.format(ROW, "ID", "RANGE", "SPAN", "SOURCE", "TARGET", "PHASE", "KEYS", "BYTES", "RATE",
                "ETA"));
        for (MigrationStatus m : r.migrations()) {
            long total = rangeBytes.getOrDefault(m.rangeId(), -1L);
            b.append(String.format(ROW, m.id(), m.rangeId(), m.span(), m.source(),
                    m.target() + (!m.backup() ? "" : m.replaces() == null ? " (backup)"
                            : " (backup, replacing " + m.replaces() + ")"),
                    m.phase() + (m.paused() ? " (paused)" : ""), m.keysCopied(), m.bytesCopied(), rate(m.rateBytes()),
                    eta(m, total, m.rateBytes())));
        }
        return b.toString();
    }

    /** The throttle as text: {@code default}, {@code unthrottled} or MB/s. */
    static String rate(long bytes) {
        return bytes < 0 ? "default" : bytes == 0 ? "unthrottled" : String.format("%.1f MB/s", bytes / 1e6);
    }

    /** Seconds left at a rate, from the bytes the range holds; {@code ?} when unknown. */
    static String eta(MigrationStatus m, long totalBytes, double bytesPerSecond) {
        if (!m.phase().equals("copying")) {
            return "-";
        }
        if (totalBytes < 0 || bytesPerSecond <= 0 || m.paused()) {
            return "?";
        }
        return Math.max(0, Math.round((totalBytes - m.bytesCopied()) / bytesPerSecond)) + " s";
    }

    /**
     * One line of a progress bar.
     *
     * @param m             the migration
     * @param totalBytes    the bytes of the range, -1 if unknown
     * @param bytesPerSecond the copy rate seen so far
     * @return the line, without a line end
     */
    static String progress(MigrationStatus m, long totalBytes, double bytesPerSecond) {
        int width = 30;
        double done = totalBytes > 0 ? Math.min(1, (double) m.bytesCopied() / totalBytes) : 0;
        int filled = m.phase().equals("copying") ? (int) (done * width) : width;
        return String.format("migration %d [%s%s] %-19s %,d keys %,d bytes %.1f MB/s ETA %s", m.id(),
                "#".repeat(filled), ".".repeat(width - filled), m.phase() + (m.paused() ? " (paused)" : ""),
                m.keysCopied(), m.bytesCopied(), bytesPerSecond / 1e6, eta(m, totalBytes, bytesPerSecond));
    }
}
