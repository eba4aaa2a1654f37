package org.autodisk.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.autodisk.core.protocol.KeyValue;
import org.junit.jupiter.api.Test;

/** A host-driven move splits each page it read into writes that fit a frame, whatever the streams' size. */
class HostMoveWritesTest {

    private static List<KeyValue> streams(int n, int valueBytes) {
        List<KeyValue> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new KeyValue(new byte[] {(byte) i}, new byte[valueBytes]));
        }
        return out;
    }

    @Test
    void aPageOfLargeStreamsGoesInWritesOfAtMostTwoMebibytesInKeyOrder() {
        List<KeyValue> page = streams(100, 32 * 1024);
        List<List<KeyValue>> writes = HostMove.bounded(page);
        assertThat(writes).hasSizeGreaterThan(1).allSatisfy(w -> assertThat(w.stream()
                .mapToLong(kv -> kv.key().length + kv.value().length).sum()).isLessThanOrEqualTo(
                        HostMove.WRITE_BYTES));
        assertThat(writes.stream().flatMap(List::stream).toList()).containsExactlyElementsOf(page);
    }

    @Test
    void aStreamLargerThanAWriteGoesAloneAndAnEmptyPageIsOneEmptyWrite() {
        List<KeyValue> page = streams(3, 3 << 20);
        assertThat(HostMove.bounded(page)).hasSize(3).allSatisfy(w -> assertThat(w).hasSize(1));
        assertThat(HostMove.bounded(List.of())).containsExactly(List.of());
        assertThat(HostMove.bounded(streams(10, 100))).hasSize(1);
    }
}
