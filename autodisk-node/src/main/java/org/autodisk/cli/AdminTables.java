package org.autodisk.cli;

import java.util.List;
import org.autodisk.core.Keys;
import org.autodisk.core.cluster.MemberStatus;
import org.autodisk.core.cluster.MembersReport;
import org.autodisk.core.cluster.RangeStatus;
import org.autodisk.core.cluster.RangesReport;
import org.autodisk.core.cluster.SplitResult;

/** Renders the admin reports (ranges, members, a split) as text tables. */
final class AdminTables {

    private static final String RANGE_ROW = "%-6s %-20s %-20s %-6s %-7s %-9s %6s %4s %-10s %10s %12s %7s%n";

    private AdminTables() {
    }

    static String ranges(RangesReport r) {
        StringBuilder b = new StringBuilder();
        b.append(r.ranges().size()).append(" ranges at metadata v").append(r.version()).append(" (")
                .append(r.directory()).append(" directory), reported by ").append(r.reportedBy()).append('\n');
        b.append(String.format(RANGE_ROW, "RANGE", "FROM (incl)", "TO (excl)", "OWNER", "BACKUP", "LOG", "EPOCH",
                "GEN", "STATE", "KEYS", "BYTES", "REQ/S"));
        r.ranges().forEach(range -> b.append(row(range)));
        return b.append(underReplicated(r.ranges())).toString();
    }

    /**
     * Names the ranges that have log nodes but no backup (after a failover, or a move to their backup), until a
     * backup fill gives them one.
     *
     * @param ranges the ranges
     * @return a line saying which, or nothing
     */
    static String underReplicated(List<RangeStatus> ranges) {
        List<String> ids = ranges.stream().filter(r -> r.backup() == null && r.logNodes() != null
                && !r.logNodes().isEmpty()).map(r -> Integer.toString(r.id())).toList();
        return ids.isEmpty() ? "" : "under-replicated (no backup copy until a backup fill gives one): range"
                + (ids.size() == 1 ? " " : "s ") + String.join(", ", ids) + "\n";
    }

    private static String row(RangeStatus r) {
        return String.format(RANGE_ROW, r.id(), r.low().length == 0 ? "-inf" : Keys.render(r.low()),
                Keys.render(r.high()), r.owner(), r.backup() == null ? "-" : r.backup(), list(r.logNodes()),
                r.epoch(), r.generation(), r.state(), unknownIfNegative(r.keys()), unknownIfNegative(r.bytes()),
                r.requestsPerSecond() < 0 ? "?" : String.format(java.util.Locale.ROOT, "%.0f", r.requestsPerSecond()));
    }

    static String members(MembersReport m) {
        StringBuilder b = new StringBuilder();
        b.append(m.members().size()).append(" members at metadata v").append(m.version()).append(", metadata leader ")
                .append(m.leader() == null ? "unknown" : m.leader()).append(", reported by ").append(m.reportedBy())
                .append('\n');
        String fmt = "%-6s %-5s %-22s %-8s %-6s %-22s %s%n";
        b.append(String.format(fmt, "NODE", "ROLE", "ADDRESS", "STATE", "VOTER", "METADATA ADDRESS", "METADATA"));
        for (MemberStatus s : m.members()) {
            b.append(String.format(fmt, s.id(), s.role(), s.address(), s.state(), s.voter() ? "yes" : "no",
                    s.metadataAddress().isEmpty() ? "-" : s.metadataAddress(), s.metadataRole()));
        }
        return b.toString();
    }

    static String split(SplitResult s) {
        return "split committed at metadata v" + s.version() + ":\n"
                + String.format(RANGE_ROW, "RANGE", "FROM (incl)", "TO (excl)", "OWNER", "BACKUP", "LOG", "EPOCH",
                        "GEN", "STATE", "KEYS", "BYTES", "REQ/S")
                + row(s.left()) + row(s.right());
    }

    private static String list(List<String> nodes) {
        return nodes == null || nodes.isEmpty() ? "-" : String.join(",", nodes);
    }

    private static String unknownIfNegative(long v) {
        return v < 0 ? "?" : Long.toString(v);
    }
}
