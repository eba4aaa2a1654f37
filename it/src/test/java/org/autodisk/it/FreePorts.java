package org.autodisk.it;

import java.io.IOException;
import java.net.ServerSocket;

/**
 * Finds runs of consecutive free loopback ports for clusters started with a base port, below the kernel's
 * ephemeral range (32768 and up), so that no outgoing connection takes a node's port while it restarts; the
 * metadata ports of the nodes (their port plus {@code metadata.port-offset}, 1000) are free too.
 */
public final class FreePorts {

    private static final int METADATA_PORT_OFFSET = 1000;

    private FreePorts() {
    }

    /**
     * Finds a run of free ports.
     *
     * @param count how many consecutive ports
     * @return the first of them
     * @throws IOException if none is found
     */
    public static int base(int count) throws IOException {
        java.util.Random random = new java.util.Random();
        for (int attempt = 0; attempt < 200; attempt++) {
            int base = 20_000 + random.nextInt(10_000 - count);
            if (allFree(base, count) && allFree(base + METADATA_PORT_OFFSET, count)) {
                return base;
            }
        }
        throw new IOException("no " + count + " consecutive free ports found");
    }

    private static boolean allFree(int from, int n) {
        for (int p = from; p < from + n; p++) {
            try (ServerSocket s = new ServerSocket()) {
                s.setReuseAddress(true);
                s.bind(new java.net.InetSocketAddress(p));
            } catch (IOException e) {
                return false;
            }
        }
        return true;
    }
}
