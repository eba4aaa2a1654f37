package org.autodisk.client;

import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;
import org.autodisk.core.Limits;

/**
 * What {@link AutoDiskClient.Builder} collected.
 *
 * @param seeds          the nodes to connect to, in order
 * @param requestTimeout how long to wait for each answer
 * @param connectTimeout how long to wait for a TCP connection and the handshake reply
 * @param limits         key and value limits checked before sending
 * @param clientId       the name sent in the handshake
 * @param tls            the TLS context, or {@code null} for plain TCP
 * @param directRouting  whether keyed requests go straight to the owner by the client's range table
 * @param addresses      turns a member's address as the cluster reports it into one this client reaches
 */
record ClientSettings(List<Seed> seeds, Duration requestTimeout, Duration connectTimeout, Limits limits,
        String clientId, io.netty.handler.ssl.SslContext tls, boolean directRouting,
        UnaryOperator<String> addresses) {

    ClientSettings {
        seeds = List.copyOf(seeds);
        addresses = addresses == null ? UnaryOperator.identity() : addresses;
    }
}
