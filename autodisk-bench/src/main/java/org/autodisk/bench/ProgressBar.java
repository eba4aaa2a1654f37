package org.autodisk.bench;

import java.io.Console;
import java.io.PrintStream;
import java.lang.reflect.Method;

/**
 * A text progress bar with percentage, phase and ETA. On a terminal it redraws one line; otherwise (output
 * redirected) it prints a line at every phase change.
 */
final class ProgressBar implements InsertExperiments.Progress {

    private static final int WIDTH = 24;
    private static final int PHASE_WIDTH = 62;

    private final PrintStream out;
    private final boolean terminal;
    private final long startNanos = System.nanoTime();
    private String lastPhase;
    private int lastLength;

    ProgressBar(PrintStream out, boolean terminal) {
        this.out = out;
        this.terminal = terminal;
    }

    /** A bar on standard error that redraws in place when standard error is a terminal. */
    static ProgressBar onStderr() {
        return new ProgressBar(System.err, isTerminal());
    }

    @Override
    public synchronized void update(String phase, long done, long total) {
        double f = total <= 0 ? 0 : Math.min(1, (double) done / total);
        long elapsed = System.nanoTime() - startNanos;
        String eta = f < 0.005 ? "--:--" : clock((long) (elapsed * (1 - f) / f));
        String line = line(f, phase, clock(elapsed), eta);
        if (terminal) {
            StringBuilder b = new StringBuilder("\r").append(line);
            for (int i = line.length(); i < lastLength; i++) {
                b.append(' ');
            }
            lastLength = line.length();
            out.print(b);
            out.flush();
        } else if (!phase.equals(lastPhase)) {
            out.println(line);
        }
        lastPhase = phase;
    }

    /** Ends the bar's line. */
    synchronized void finish() {
        if (terminal && lastLength > 0) {
            out.println();
        }
    }

    static String line(double fraction, String phase, String elapsed, String eta) {
        int filled = (int) Math.round(fraction * WIDTH);
        String shownPhase = phase.length() > PHASE_WIDTH ? phase.substring(0, PHASE_WIDTH - 3) + "..." : phase;
        return "[" + "#".repeat(filled) + "-".repeat(WIDTH - filled) + "] "
                + String.format("%3d%%", (int) Math.floor(fraction * 100)) + "  " + elapsed + "  ETA " + eta + "  "
                + shownPhase;
    }

    static String clock(long nanos) {
        long s = nanos / 1_000_000_000L;
        return s >= 3600 ? String.format("%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
                : String.format("%d:%02d", s / 60, s % 60);
    }

    /** {@code Console.isTerminal()} where the JDK has it (22+): System.console() alone is not enough there. */
    private static boolean isTerminal() {
        Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            Method m = Console.class.getMethod("isTerminal");
            return (Boolean) m.invoke(console);
        } catch (ReflectiveOperationException e) {
            return true;
        }
    }
}
