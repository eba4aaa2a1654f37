package org.autodisk.core.protocol;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The trace trailer of a traced response: hop records, then an i32 with the records' byte length as the last
 * four bytes. Each node appends its own hop on the way back, so hops are listed owner first, entry node last.
 */
public final class Trace {

    private Trace() {
    }

    /**
     * Appends a hop to a response body, creating the trailer if there is none.
     *
     * @param body      a response body
     * @param hasTrailer whether {@code body} already ends with a trailer
     * @param hop       the hop to add
     * @return the new body
     */
    public static byte[] append(byte[] body, boolean hasTrailer, TraceHop hop) {
        int trailerLength = hasTrailer ? trailerLength(body) : 0;
        int keep = hasTrailer ? body.length - 4 : body.length;
        BodyWriter w = new BodyWriter(keep + 64).raw(Arrays.copyOf(body, keep));
        int before = w.size();
        w.string(hop.nodeId()).string(hop.action()).u8(hop.components().size());
        for (Map.Entry<String, Long> c : hop.components().entrySet()) {
            w.string(c.getKey()).i64(c.getValue());
        }
        return w.i32(trailerLength + w.size() - before).toBytes();
    }

    /**
     * Reads the hops of a traced response.
     *
     * @param body a response body that carries a trailer
     * @return hops, owner first
     */
    public static List<TraceHop> hops(byte[] body) {
        int length = trailerLength(body);
        BodyReader r = new BodyReader(body, body.length - 4 - length, body.length - 4);
        List<TraceHop> hops = new ArrayList<>();
        while (r.remaining() > 0) {
            String node = r.string("hop node");
            String action = r.string("hop action");
            int n = r.u8("hop component count");
            Map<String, Long> components = new LinkedHashMap<>();
            for (int i = 0; i < n; i++) {
                components.put(r.string("component name"), r.i64("component nanos"));
            }
            hops.add(new TraceHop(node, action, components));
        }
        return hops;
    }

    /**
     * Removes a trailer.
     *
     * @param body a response body with a trailer
     * @return the body without it
     */
    public static byte[] strip(byte[] body) {
        return Arrays.copyOf(body, body.length - 4 - trailerLength(body));
    }

    private static int trailerLength(byte[] body) {
        if (body.length < 5) {
            throw new ProtocolException(Status.MALFORMED, "traced response too short for a trailer");
        }
        int n = new BodyReader(body, body.length - 4, body.length).i32("trailer length");
        if (n < 0 || n > body.length - 5) {
            throw new ProtocolException(Status.MALFORMED, "trace trailer length " + n + " does not fit the body");
        }
        return n;
    }
}
