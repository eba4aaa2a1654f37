package org.autodisk.core.cluster;

/**
 * One member as the cluster metadata records it, with its metadata replica.
 *
 * @param id              node id
 * @param role            {@code data} or {@code log}
 * @param address         host:port it serves clients and peers on
 * @param state           {@code joining}, {@code up}, {@code suspected}, {@code failed} or {@code leaving}
 * @param voter           whether it votes on the metadata
 * @param metadataAddress host:port of its metadata replica
 * @param metadataRole    what its replica is now ({@code leader}, {@code follower}, {@code candidate},
 *                        {@code listener}), or {@code unreachable}
 */
public record MemberStatus(String id, String role, String address, String state, boolean voter,
        String metadataAddress, String metadataRole) {
}
