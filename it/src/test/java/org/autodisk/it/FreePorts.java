package org.autodisk.it;

import java.io.IOException;
import java.net.ServerSocket;

/** Finds runs of consecutive free loopback ports for clusters started with a base port. */
final class FreePorts {

    private FreePorts() {
    }

    static int base(int count) throws IOException {
        for (int attempt = 0; attempt < 50; attempt++) {
            int base;
            try (ServerSocket s = new ServerSocket(0)) {
                base = s.getLocalPort();
            }
            if (base < 65000 && allFree(base + 1, count - 1)) {
                return base;
            }
        }
        throw new IOException("no " + count + " consecutive free ports found");
    }

    private static boolean allFree(int from, int n) {
        for (int p = from; p < from + n; p++) {
            try (ServerSocket s = new ServerSocket(p)) {
                s.setReuseAddress(true);
            } catch (IOException e) {
                return false;
            }
        }
        return true;
    }
}
