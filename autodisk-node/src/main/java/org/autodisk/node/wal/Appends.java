package org.autodisk.node.wal;

import java.util.List;
import java.util.regex.Pattern;
import org.autodisk.node.wire.LogRecord;

/** Argument checks shared by the log store implementations. */
final class Appends {

    private static final Pattern STREAM = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}");

    private Appends() {
    }

    /**
     * Checks a stream name and the LSN order inside a batch of records.
     *
     * @return what is wrong, or {@code null}
     */
    static String problem(String stream, List<LogRecord> records) {
        if (stream == null || !STREAM.matcher(stream).matches()) {
            return "invalid stream name '" + stream + "' (letters, digits, . _ -, not starting with a dot)";
        }
        if (records == null) {
            return "stream " + stream + ": records is null";
        }
        long previous = 0;
        for (LogRecord r : records) {
            if (r == null) {
                return "stream " + stream + ": null record";
            }
            if (r.lsn() <= previous) {
                return "stream " + stream + ": LSN " + r.lsn() + " follows LSN " + previous
                        + " in the same append (LSNs must be >= 1 and strictly increasing); nothing written";
            }
            previous = r.lsn();
        }
        return null;
    }

    /**
     * Checks that an append continues a stream.
     *
     * @return what is wrong, or {@code null}
     */
    static String orderProblem(String stream, long first, long lastLsn) {
        if (first <= lastLsn) {
            return "stream " + stream + ": first LSN " + first + " is not greater than the stream's last LSN "
                    + lastLsn + "; nothing written";
        }
        return null;
    }
}
