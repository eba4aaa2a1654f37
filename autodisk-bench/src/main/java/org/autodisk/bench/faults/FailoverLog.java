package org.autodisk.bench.faults;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads when the steps of a failover happened from the nodes' logs (each line starts with its {@code HH:mm:ss.SSS}):
 * the failed node declared, a range of it promoted, taken over from the backup copy, served by its new owner.
 */
public final class FailoverLog {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");
    private static final Pattern LINE = Pattern.compile("^(\\d\\d:\\d\\d:\\d\\d\\.\\d{3}) .*");

    private final List<Path> logs;

    /**
     * Reads the given logs.
     *
     * @param logs the nodes' log files
     */
    public FailoverLog(List<Path> logs) {
        this.logs = List.copyOf(logs);
    }

    /**
     * Milliseconds of the day a time was, as the logs write it.
     *
     * @param t the time
     * @return ms since midnight
     */
    public static long msOfDay(LocalTime t) {
        return t.toNanoOfDay() / 1_000_000;
    }

    /**
     * Finds the first line at or after a time that contains every text given.
     *
     * @param fromMs the earliest ms of the day
     * @param texts  what the line says
     * @return its ms of the day, if any line says it
     * @throws IOException if a log cannot be read
     */
    public OptionalLong first(long fromMs, String... texts) throws IOException {
        long best = Long.MAX_VALUE;
        for (Path log : logs) {
            if (!Files.exists(log)) {
                continue;
            }
            for (String line : Files.readAllLines(log)) {
                Matcher m = LINE.matcher(line);
                if (m.matches() && java.util.Arrays.stream(texts).allMatch(line::contains)) {
                    long at = msOfDay(LocalTime.parse(m.group(1), TIME));
                    if (at >= fromMs && at < best) {
                        best = at;
                    }
                }
            }
        }
        return best == Long.MAX_VALUE ? OptionalLong.empty() : OptionalLong.of(best);
    }
}
