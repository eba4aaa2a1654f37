package org.autodisk.cli;

import org.autodisk.core.cluster.DirectoryReport;

/** The text form of {@code directory}: a summary line, then per data node its index page copies and its leaves. */
final class DirectoryTable {

    private static final String PAGE_ROW = "  %-22s %-5s %-18s %-18s %-7s %-8s %s%n";
    private static final int MAX_LEAVES_SHOWN = 24;

    private DirectoryTable() {
    }

    static String render(DirectoryReport r) {
        StringBuilder b = new StringBuilder();
        b.append(r.kind()).append(" directory at metadata v").append(r.version()).append(": ");
        b.append(r.levels() == 0 ? "no index pages (every node holds the whole range map)"
                : r.levels() + " levels, " + r.indexPages() + " distinct index pages"
                        + (r.fanout() > 0 ? " of up to " + r.fanout() + " entries" : ""));
        b.append(", reported by ").append(r.reportedBy()).append('\n');
        r.nodes().forEach(n -> node(b, n));
        return b.toString();
    }

    private static void node(StringBuilder b, DirectoryReport.NodeIndex n) {
        if (n.error() != null) {
            b.append(n.id()).append(": did not answer (").append(n.error()).append(")\n");
            return;
        }
        b.append(n.id()).append(": ").append(n.indexPages()).append(" index page copies, ").append(n.leaves())
                .append(" leaves\n");
        if (!n.pages().isEmpty()) {
            b.append(String.format(PAGE_ROW, "PAGE", "LEVEL", "LOW (incl)", "HIGH (excl)", "ENTRIES", "VERSION",
                    "COPY SET"));
        }
        for (DirectoryReport.IndexPage p : n.pages()) {
            b.append(String.format(PAGE_ROW, p.id(), p.level(), p.low().isEmpty() ? "-inf" : p.low(),
                    p.high() == null ? "+inf" : p.high(), p.entries(), p.version(), String.join(",", p.copySet())));
        }
        int shown = Math.min(MAX_LEAVES_SHOWN, n.leafLows().size());
        b.append("  leaves from: ").append(String.join(" ", n.leafLows().subList(0, shown).stream()
                .map(l -> l.isEmpty() ? "-inf" : l).toList()));
        b.append(n.leafLows().size() > shown ? " ... (" + (n.leafLows().size() - shown) + " more)\n" : "\n");
    }
}
