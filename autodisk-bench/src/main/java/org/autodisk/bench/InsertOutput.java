package org.autodisk.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Writes what {@link InsertExperiments} measured: CSV per experiment, PNG charts and the Markdown report. */
public final class InsertOutput {

    private InsertOutput() {
    }

    /**
     * Writes the CSV files, the charts (if they can be rendered; if not, the report says why) and
     * {@code report.md} into {@code dir}.
     *
     * @param results what was measured
     * @param dir     the output directory (created if missing)
     * @param command the command line that produced the results, for the report
     * @param notes   extra notes for the report's end (the common ones are added by the caller, see
     *                {@link #commonNotes()})
     * @return the report's path
     * @throws IOException if a file cannot be written
     */
    public static Path write(InsertResults results, Path dir, String command, List<String> notes)
            throws IOException {
        Files.createDirectories(dir);
        InsertCsv.write(results, dir);
        List<String> allNotes = new ArrayList<>(notes);
        List<String> charts = List.of();
        try {
            charts = InsertCharts.write(results, dir);
        } catch (IOException | RuntimeException | LinkageError e) {
            allNotes.add("The charts could not be rendered here: " + e);
        }
        return InsertReport.write(results, dir, command, charts, allNotes);
    }

    /**
     * The note on the node configuration every cluster had besides {@code wal.multiplicity} and
     * {@code store.engine}, and why the value limit is raised when it is.
     *
     * @param settings what runs
     * @return the note, Markdown
     */
    public static String configurationNote(InsertExperiments.Settings settings) {
        List<String> lines = settings.extraYaml().lines().filter(l -> !l.isBlank()).toList();
        if (lines.isEmpty()) {
            return "Node configuration of every cluster: the defaults besides `wal.multiplicity` and `store.engine`.";
        }
        String note = "Node configuration of every cluster: `" + String.join("`, `", lines) + "` besides "
                + "`wal.multiplicity` and `store.engine`.";
        if (settings.extraYaml().contains(InsertBench.VALUE_LIMIT_KEY + ":")) {
            note += " The value limit is raised from 4 MiB because the frame limit follows from it and one "
                    + "LEDGER_APPEND batch (the entries in flight) or one backup catch-up page (up to 16 MiB) travels "
                    + "as one frame: with the default, 1 MB streams 16 in flight fail with \"frame of 5243108 bytes "
                    + "exceeds the limit of 4259840 bytes\" on the log node.";
        }
        return note;
    }

    /**
     * The notes every report carries: what is not measured and how the runs are arranged.
     *
     * @return the notes, Markdown
     */
    public static List<String> commonNotes() {
        return List.of("Rule processing: the Drools rules decide every request on every node it passes; (e) "
                        + "sums the rule time of the entry and the owner node. The paper's 0.63 ms is derived from "
                        + "its network experiments (Tables 1, 2).",
                "Tables 1, 2 and 4 of the paper (the network alone, network and processing, disk I/O alone by "
                        + "stream count) are not separate experiments here; their counterparts are the network, "
                        + "store and log rows of (e), and Table 3 is the cluster-Q rows of (a).",
                "Every insert makes a new stream (an 8-byte counter after the range's first key byte); values are "
                        + "random bytes. Between measurements the run waits (at most 5 s) until the log nodes "
                        + "have caught the backup copies up, so that one measurement's background work does not "
                        + "fall into the next; during a measurement the catch-up runs as it would in use.",
                "The paper's figures are transcribed as printed. Table 9 gives 50.6 KB/s for 1 KB streams, "
                        + "though 500 KB in 11,297 ms is 44.3 KB/s (the inserts/s column is computed from the time).",
                "Timing is done by the client (System.nanoTime around each request and each run) and by the nodes "
                        + "(per-request traces); everything shares 2 cores, so the figures are for comparison "
                        + "within this run, not capacity planning.");
    }
}
