package org.autodisk.bench;

/**
 * The run's clock and its progress: work is counted in units (roughly the microseconds a step is expected to
 * take), so that a listener can show a percentage and an ETA.
 */
final class Tracker {

    private static final long REPORT_EVERY_NANOS = 100_000_000L;

    private final InsertExperiments.Progress progress;
    private final long startNanos = System.nanoTime();
    private final long totalUnits;
    private long doneUnits;
    private long lastReport;
    private String phase = "";

    Tracker(InsertExperiments.Progress progress, long totalUnits) {
        this.progress = progress;
        this.totalUnits = Math.max(1, totalUnits);
    }

    /** Milliseconds since the run started. */
    double ms() {
        return (System.nanoTime() - startNanos) / 1e6;
    }

    synchronized void phase(String name) {
        phase = name;
        report(true);
    }

    synchronized void advance(long units) {
        doneUnits += units;
        report(false);
    }

    synchronized void finish() {
        doneUnits = totalUnits;
        phase = "done";
        report(true);
    }

    private void report(boolean force) {
        long now = System.nanoTime();
        if (force || now - lastReport >= REPORT_EVERY_NANOS) {
            lastReport = now;
            progress.update(phase, Math.min(doneUnits, totalUnits), totalUnits);
        }
    }

    /** Expected cost of a sequential insert of this size. */
    static long sequentialUnits(int sizeBytes) {
        return 350 + sizeBytes / 40;
    }

    /** Expected cost of an insert with others in flight. */
    static long inFlightUnits(int sizeBytes) {
        return 70 + sizeBytes / 150;
    }

    /** Expected cost of starting a cluster. */
    static long startUnits(int nodes) {
        return 1_500_000L * nodes;
    }

    /** Expected cost of waiting for background catch-up between measurements. */
    static long settleUnits() {
        return 300_000L;
    }
}
