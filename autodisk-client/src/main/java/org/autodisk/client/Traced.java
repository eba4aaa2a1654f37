package org.autodisk.client;

import java.util.List;
import org.autodisk.core.protocol.TraceHop;

/**
 * The result of a traced request: the value plus what each node did for it.
 *
 * @param value          the operation's result
 * @param hops           the nodes' hop records in the order the node sent them: owner first, entry node last
 * @param roundTripNanos the time from sending the request to reading the answer, measured by the client
 * @param <T>            the result type
 */
public record Traced<T>(T value, List<TraceHop> hops, long roundTripNanos) {

    /**
     * Makes the hop list immutable.
     *
     * @throws NullPointerException if {@code hops} is {@code null}
     */
    public Traced {
        hops = List.copyOf(hops);
    }
}
