package org.autodisk.bench.faults;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import org.autodisk.core.Keys;
import org.autodisk.core.cluster.DirectoryReport;
import org.autodisk.core.cluster.RangeStatus;

/**
 * Checks a settled Fat-Btree from the outside, by what {@code directory} reports: every data node answered, all
 * copies of an index page are equal (level, fences, entry count and digest, copy set, version), a page other than
 * the root too, is held
 * by exactly the nodes of its copy set (the root by every node that owns a leaf), and the leaves each node's copies
 * name it the owner of are the ranges the metadata gives it. Under the range map there is nothing to check.
 */
public final class DirectoryCheck {

    private DirectoryCheck() {
    }

    /**
     * Finds what is wrong.
     *
     * @param report the directory as the nodes reported it
     * @param ranges the committed ranges
     * @return what is wrong, nothing when the copies agree with each other and with the metadata
     */
    public static List<String> problems(DirectoryReport report, List<RangeStatus> ranges) {
        if (!"fat-btree".equals(report.kind())) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        Map<Long, DirectoryReport.IndexPage> first = new HashMap<>();
        Map<Long, List<String>> holders = new HashMap<>();
        for (DirectoryReport.NodeIndex n : report.nodes()) {
            if (n.error() != null) {
                out.add("directory: " + n.id() + " did not answer: " + n.error());
                continue;
            }
            for (DirectoryReport.IndexPage p : n.pages()) {
                DirectoryReport.IndexPage seen = first.putIfAbsent(p.id(), p);
                if (seen != null && !seen.equals(p)) {
                    out.add("directory: copies of page " + p.id() + " differ: " + seen + " and, on " + n.id() + ", "
                            + p);
                }
                holders.computeIfAbsent(p.id(), k -> new ArrayList<>()).add(n.id());
            }
            leaves(n, ranges, out);
        }
        if (!out.isEmpty() && report.nodes().stream().anyMatch(n -> n.error() != null)) {
            return out;
        }
        first.forEach((id, p) -> {
            List<String> expected = p.copySet();
            if (!new TreeSet<>(expected).equals(new TreeSet<>(holders.get(id)))) {
                out.add("directory: page " + id + " is held by " + holders.get(id) + ", not by " + expected);
            }
        });
        return out;
    }

    /** The leaves a node's copies name it the owner of against the ranges the metadata gives it. */
    private static void leaves(DirectoryReport.NodeIndex n, List<RangeStatus> ranges, List<String> out) {
        List<String> own = ranges.stream().filter(r -> Objects.equals(r.owner(), n.id()))
                .map(r -> r.lowHex().isEmpty() ? "" : Keys.render(HexFormat.of().parseHex(r.lowHex())))
                .sorted().toList();
        List<String> held = n.leafLows().stream().sorted().toList();
        if (!own.equals(held)) {
            out.add("directory: " + n.id() + "'s copies name it the owner of the leaves at " + held
                    + ", the metadata of the ranges at " + own);
        }
    }
}
