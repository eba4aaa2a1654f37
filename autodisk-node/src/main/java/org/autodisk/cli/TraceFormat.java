package org.autodisk.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.autodisk.core.protocol.TraceHop;

/** Renders request traces for people: the path through the nodes and where the time went. */
final class TraceFormat {

    private TraceFormat() {
    }

    /** "d1 -> d2" from hops listed owner first. */
    static String path(List<TraceHop> hops) {
        List<String> ids = new ArrayList<>();
        for (int i = hops.size() - 1; i >= 0; i--) {
            ids.add(hops.get(i).nodeId());
        }
        return String.join(" -> ", ids);
    }

    /** "d1[queue 12us forward 640us] d2[queue 8us store 25us]", entry node first. */
    static String timings(List<TraceHop> hops) {
        StringBuilder b = new StringBuilder();
        for (int i = hops.size() - 1; i >= 0; i--) {
            TraceHop h = hops.get(i);
            b.append(h.nodeId()).append('[');
            String sep = "";
            for (Map.Entry<String, Long> c : h.components().entrySet()) {
                if (!"total".equals(c.getKey())) {
                    b.append(sep).append(c.getKey()).append(' ').append(micros(c.getValue()));
                    sep = " ";
                }
            }
            b.append("] ");
        }
        return b.toString().trim();
    }

    static String micros(long nanos) {
        return nanos >= 10_000_000 ? nanos / 1_000_000 + "ms" : nanos / 1000 + "us";
    }
}
