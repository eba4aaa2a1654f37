package org.autodisk.client;

/**
 * A node address to connect to, as given by the user.
 *
 * @param host host name or IP address (without brackets for IPv6)
 * @param port TCP port 1..65535
 */
record Seed(String host, int port) {

    /**
     * Parses {@code host:port} or {@code [ipv6]:port}.
     *
     * @param text the seed as given
     * @return the seed
     * @throws IllegalArgumentException naming the seed if it is not of that form
     */
    static Seed parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("seed is null: seeds are host:port");
        }
        String s = text.strip();
        int colon = s.lastIndexOf(':');
        if (colon <= 0 || colon == s.length() - 1) {
            throw bad(text, "expected host:port");
        }
        String host = s.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        } else if (host.contains(":")) {
            throw bad(text, "write IPv6 addresses as [address]:port");
        }
        if (host.isBlank() || host.chars().anyMatch(Character::isWhitespace)) {
            throw bad(text, "the host is empty or has spaces");
        }
        return new Seed(host, port(text, s.substring(colon + 1)));
    }

    private static int port(String text, String digits) {
        int port;
        try {
            port = Integer.parseInt(digits);
        } catch (NumberFormatException e) {
            throw bad(text, "the port '" + digits + "' is not a number");
        }
        if (port < 1 || port > 65535) {
            throw bad(text, "the port must be 1..65535");
        }
        return port;
    }

    private static IllegalArgumentException bad(String text, String why) {
        return new IllegalArgumentException("bad seed '" + text + "': " + why);
    }

    @Override
    public String toString() {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
}
