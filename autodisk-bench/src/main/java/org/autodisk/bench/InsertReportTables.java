package org.autodisk.bench;

import static org.autodisk.bench.InsertReport.NONE;
import static org.autodisk.bench.InsertReport.ms;
import static org.autodisk.bench.InsertReport.num;
import static org.autodisk.bench.InsertReport.row;
import static org.autodisk.bench.InsertReport.us;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.autodisk.bench.InsertResults.ComponentRow;
import org.autodisk.bench.InsertResults.SizeRow;
import org.autodisk.bench.InsertResults.StreamsRow;

/** The report's (d) multiplicity and (e) component tables. */
final class InsertReportTables {

    private InsertReportTables() {
    }

    static void multiplicity(List<String> md, InsertResults r, List<String> charts) {
        String k = "in-flight-" + r.settings().inFlight();
        md.add("## (d) Multiplicity 1 vs 2 (Tables 6-9, Fig. 7)");
        md.add("");
        md.add("m=1: cluster B (2 data + 1 log), m=2: cluster C (2 data + 2 log; every change is durable on both "
                + "log nodes before it is applied). *m2/m1* > 1 for time, < 1 for throughput: the cost of the "
                + "second log copy.");
        md.add("");
        md.add("| N | paper ms/insert m=1 | m=2 | m2/m1 | ours sequential m=1 | m=2 | m2/m1 | ours "
                + r.settings().inFlight() + " in flight m=1 | m=2 | m2/m1 |");
        md.add("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (int n : r.settings().streamCounts()) {
            StreamsRow s1 = InsertReport.streamsRow(r, 1, "sequential", n);
            StreamsRow s2 = InsertReport.streamsRow(r, 2, "sequential", n);
            StreamsRow p1 = InsertReport.streamsRow(r, 1, k, n);
            StreamsRow p2 = InsertReport.streamsRow(r, 2, k, n);
            if (s1 == null || s2 == null || p1 == null || p2 == null) {
                continue;
            }
            Double t6 = PaperFigures.meanPerStreamMs(1, n);
            Double t7 = PaperFigures.meanPerStreamMs(2, n);
            md.add(row(String.format(Locale.ROOT, "%,d", n), ms(t6), ms(t7), ratio(t7, t6),
                    ms(s1.meanPerInsertMs()), ms(s2.meanPerInsertMs()), ratio(s2.meanPerInsertMs(),
                    s1.meanPerInsertMs()), ms(p1.meanPerInsertMs()), ms(p2.meanPerInsertMs()),
                    ratio(p2.meanPerInsertMs(), p1.meanPerInsertMs())));
        }
        md.add("");
        md.add("| size | paper KB/s m=1 | m=2 | m2/m1 | ours KB/s m=1 | m=2 | m2/m1 |");
        md.add("|---:|---:|---:|---:|---:|---:|---:|");
        for (int size : r.settings().sizesBytes()) {
            SizeRow one = InsertReport.sizeRow(r, 1, size);
            SizeRow two = InsertReport.sizeRow(r, 2, size);
            if (one == null || two == null) {
                continue;
            }
            Double t8 = PaperFigures.kbPerSecond(1, size);
            Double t9 = PaperFigures.kbPerSecond(2, size);
            md.add(row(InsertReport.size(size), num(t8), num(t9), ratio(t9, t8), num(one.kbPerSecond()),
                    num(two.kbPerSecond()), ratio(two.kbPerSecond(), one.kbPerSecond())));
        }
        md.add("");
        InsertReport.chart(md, charts, InsertCharts.MULTIPLICITY, "m=2 over m=1, paper and ours");
    }

    static void components(List<String> md, InsertResults r) {
        List<String> scenarios = InsertReport.componentScenarios(r);
        md.add("## (e) Components of one insert (Table 5)");
        md.add("");
        md.add("From the traces of (a): every node on the path reports its queue wait, forward, log and store "
                + "times and its total; the network is what the sender measured minus what the receiver reports, "
                + "so no clocks are compared across processes, and the parts add up to the round trip. Mean ms "
                + "(p50 / p99). The paper's network figures are one way; ours cover request and reply.");
        md.add("");
        StringBuilder head = new StringBuilder("| component | how we measure it | paper ms (Table 5) |");
        StringBuilder rule = new StringBuilder("|---|---|---:|");
        for (String s : scenarios) {
            head.append(' ').append(s).append(" |");
            rule.append("---:|");
        }
        md.add(head.toString());
        md.add(rule.toString());
        for (String component : componentNames(r, scenarios)) {
            List<Object> cells = new ArrayList<>();
            cells.add(component);
            ComponentRow any = null;
            for (String s : scenarios) {
                ComponentRow c = InsertReport.component(r, s, component);
                any = any == null ? c : any;
                cells.add(c == null ? NONE : c.ours() == null ? c.measured() : us(c.ours().meanUs()) + " ("
                        + us(c.ours().p50Us()) + " / " + us(c.ours().p99Us()) + ")");
            }
            cells.add(1, any.measured());
            cells.add(2, ms(any.paperMs()));
            md.add(row(cells.toArray()));
        }
        md.add("");
        Map<String, Double> sums = InsertComponents.sumOfParts(r.components());
        for (String s : scenarios) {
            ComponentRow total = InsertReport.component(r, s, InsertComponents.TOTAL);
            if (total != null && sums.containsKey(s)) {
                md.add("- " + s + ": the parts' means add up to " + us(sums.get(s)) + " ms; the round trip's "
                        + "mean is " + us(total.ours().meanUs()) + " ms.");
            }
        }
        md.add("- Notes per component are in " + InsertCsv.COMPONENTS + " (for the paper's figures: its network "
                + "times are one way, its rule time is 1.27 ms - 2 x 0.32 ms from Tables 1 and 2, its log disk "
                + "access is the write on the log disk alone).");
        md.add("");
    }

    private static List<String> componentNames(InsertResults r, List<String> scenarios) {
        Set<String> names = new LinkedHashSet<>();
        for (int i = scenarios.size() - 1; i >= 0; i--) {
            String s = scenarios.get(i);
            r.components().stream().filter(c -> c.scenario().equals(s)).forEach(c -> names.add(c.component()));
        }
        return List.copyOf(names);
    }

    private static String ratio(Double a, Double b) {
        return a == null || b == null || b == 0 ? NONE : String.format(Locale.ROOT, "%.2f", a / b);
    }
}
