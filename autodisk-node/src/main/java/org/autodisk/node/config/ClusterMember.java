package org.autodisk.node.config;

import java.net.InetSocketAddress;
import java.util.Locale;
import org.autodisk.core.config.ConfigException;

/**
 * One member of the cluster.
 *
 * @param id      node id
 * @param role    data or log
 * @param address where it serves
 */
public record ClusterMember(String id, Role role, InetSocketAddress address) {

    /** What a node does. */
    public enum Role {
        /** Owns key ranges and stores streams. */
        DATA,
        /** Holds the concentrated write-ahead log. */
        LOG;

        /**
         * Parses a role name.
         *
         * @param text {@code data} or {@code log}
         * @return the role
         */
        public static Role parse(String text) {
            try {
                return valueOf(text.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new ConfigException("unknown node role '" + text + "' (expected data or log)");
            }
        }

        /**
         * Returns the lower-case name used in configuration and status.
         *
         * @return {@code data} or {@code log}
         */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * Parses {@code host:port}.
     *
     * @param text the address
     * @return an unresolved socket address
     * @throws ConfigException if it is not host:port with a valid port
     */
    public static InetSocketAddress parseAddress(String text) {
        int colon = text.lastIndexOf(':');
        try {
            if (colon <= 0) {
                throw new NumberFormatException();
            }
            int port = Integer.parseInt(text.substring(colon + 1));
            if (port < 0 || port > 65535) {
                throw new NumberFormatException();
            }
            return InetSocketAddress.createUnresolved(text.substring(0, colon), port);
        } catch (NumberFormatException e) {
            throw new ConfigException("address '" + text + "' is not host:port");
        }
    }

    /**
     * Renders the address as host:port.
     *
     * @return host:port
     */
    public String hostPort() {
        return address.getHostString() + ":" + address.getPort();
    }
}
