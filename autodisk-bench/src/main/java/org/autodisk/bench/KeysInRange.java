package org.autodisk.bench;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.autodisk.core.Keys;
import org.autodisk.core.cluster.RangeStatus;

/** Generates distinct keys that fall in one range, for benchmarks and demos. */
final class KeysInRange {

    private final RangeStatus range;
    private final byte[] prefix;

    KeysInRange(RangeStatus range) {
        this.range = range;
        this.prefix = range.low().length == 0 ? new byte[] {0} : range.low();
    }

    byte[] key(long n) {
        byte[] k = Arrays.copyOf(prefix, prefix.length + 8);
        ByteBuffer.wrap(k, prefix.length, 8).putLong(n);
        if (Keys.compare(k, range.low()) < 0 || range.high() != null && Keys.compare(k, range.high()) >= 0) {
            throw new IllegalStateException("cannot generate keys inside range " + range.id());
        }
        return k;
    }
}
