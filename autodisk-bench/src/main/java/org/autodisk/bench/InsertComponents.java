package org.autodisk.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;
import org.autodisk.client.Traced;
import org.autodisk.core.protocol.TraceHop;

/**
 * (e) The parts of one insert from its trace, like the paper's Table 5. Every part is a difference of
 * durations measured on one side only, so no clocks are compared across processes, and the parts add up to the
 * client's round trip exactly.
 */
final class InsertComponents {

    static final String RULES_MEASURED = "rules on every node the insert passed (entry and owner)";
    static final String TOTAL = "total (client round trip)";

    private InsertComponents() {
    }

    /** One derived component: name, how it is computed, the paper's figure, a note, and the formula. */
    private record Part(String name, String measured, Double paperMs, String note, ToLongFunction<Traced<?>> f) {
    }

    /**
     * Derives the components of every traced insert of one scenario.
     *
     * @param scenario the scenario's name
     * @param traces   the traced inserts, all taking the same path (1 hop: served by the entry node; 2 hops:
     *                 forwarded once)
     * @return one row per component, in the order of Table 5, then the unattributed rest, then the total
     */
    static List<InsertResults.ComponentRow> of(String scenario, List<Traced<Void>> traces) {
        List<InsertResults.ComponentRow> rows = new ArrayList<>();
        if (traces.isEmpty()) {
            return rows;
        }
        boolean forwarded = traces.get(0).hops().size() > 1;
        boolean logged = traces.stream().anyMatch(t -> t.hops().get(0).components().containsKey("log"));
        for (Part p : parts(forwarded, logged)) {
            if (p.f() == null) {
                rows.add(new InsertResults.ComponentRow(scenario, p.name(), p.measured(), p.paperMs(), null, p.note()));
                continue;
            }
            long[] v = new long[traces.size()];
            for (int i = 0; i < v.length; i++) {
                v[i] = p.f().applyAsLong(traces.get(i));
            }
            rows.add(new InsertResults.ComponentRow(scenario, p.name(), p.measured(), p.paperMs(),
                    InsertResults.Summary.of(v, v.length), p.note()));
        }
        return rows;
    }

    private static List<Part> parts(boolean forwarded, boolean logged) {
        Map<String, Double> t5 = PaperFigures.TABLE5_MS;
        List<Part> p = new ArrayList<>();
        p.add(new Part(PaperFigures.HOST_NET, "client round trip - entry node total", t5.get(PaperFigures.HOST_NET),
                "ours: request and reply (two crossings) incl. client encode/decode; paper: one way",
                t -> t.roundTripNanos() - entry(t).nanos("total")));
        if (forwarded) {
            p.add(new Part(PaperFigures.DISK_NET, "entry node forward - owner total", t5.get(PaperFigures.DISK_NET),
                    "ours: there and back (two crossings); paper: one way",
                    t -> entry(t).nanos("forward") - owner(t).nanos("total")));
            p.add(new Part("queue wait (entry node)", "entry node queue", t5.get(PaperFigures.QUEUE), "",
                    t -> entry(t).nanos("queue")));
        }
        p.add(new Part("queue wait (owner)", "owner queue", t5.get(PaperFigures.QUEUE), "",
                t -> owner(t).nanos("queue")));
        p.add(new Part(PaperFigures.RULES, RULES_MEASURED, t5.get(PaperFigures.RULES),
                "Drools decision per node; paper: 1.27 - 2 x 0.32 ms (Tables 1, 2)",
                t -> t.hops().stream().mapToLong(h -> h.nanos("rules")).sum()));
        p.add(new Part(PaperFigures.STORE, "owner store (RocksDB apply)", t5.get(PaperFigures.STORE), "",
                t -> owner(t).nanos("store")));
        if (logged) {
            p.add(new Part(PaperFigures.LOG, "owner log (ship to log node, its fsync, ack, LSN order)",
                    t5.get(PaperFigures.LOG), "ours includes the data node <-> log node network",
                    t -> owner(t).nanos("log")));
        }
        if (forwarded) {
            p.add(new Part("other in entry node", "entry total - queue - rules - forward", null,
                    "decode, route, relay", t -> entry(t).nanos("total") - entry(t).nanos("queue")
                            - entry(t).nanos("rules") - entry(t).nanos("forward")));
        }
        p.add(new Part("other in owner", "owner total - queue - rules - log - store", null,
                "decode, hand-offs, reply", t -> owner(t).nanos("total") - owner(t).nanos("queue")
                        - owner(t).nanos("rules") - owner(t).nanos("log") - owner(t).nanos("store")));
        Double paperTotal = forwarded ? PaperFigures.MODEL_FORWARDED_MS : null;
        p.add(new Part(TOTAL, "client round trip", paperTotal, forwarded ? "paper: Fig. 4 estimate from Table 5" : "",
                Traced::roundTripNanos));
        return p;
    }

    /** Sums the mean of every measured part except the total; equals the total's mean up to rounding. */
    static Map<String, Double> sumOfParts(List<InsertResults.ComponentRow> rows) {
        Map<String, Double> sums = new LinkedHashMap<>();
        for (InsertResults.ComponentRow r : rows) {
            if (r.ours() != null && !r.component().equals(TOTAL)) {
                sums.merge(r.scenario(), r.ours().meanUs(), Double::sum);
            }
        }
        return sums;
    }

    private static TraceHop entry(Traced<?> t) {
        return t.hops().get(t.hops().size() - 1);
    }

    private static TraceHop owner(Traced<?> t) {
        return t.hops().get(0);
    }
}
