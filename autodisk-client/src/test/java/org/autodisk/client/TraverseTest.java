package org.autodisk.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;
import org.autodisk.core.protocol.Opcode;
import org.junit.jupiter.api.Test;

class TraverseTest extends FakeNodeTest {

    private List<String> fill(int n) {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String k = String.format("k%05d", i);
            node.put(k, "v" + i);
            keys.add(k);
        }
        return keys;
    }

    @Test
    void followsResumeKeysUntilTheLimit() {
        List<String> keys = fill(10);
        node.pageBudget(3);

        List<StreamEntry> got = client.traverse("", null, 8);

        assertThat(got).extracting(StreamEntry::keyString).containsExactlyElementsOf(keys.subList(0, 8));
        assertThat(node.count(Opcode.TRAVERSE)).isEqualTo(3);
    }

    @Test
    void followsResumeKeysUntilTheEnd() {
        List<String> keys = fill(10);
        node.pageBudget(4);

        List<StreamEntry> got = client.traverse("", null, 1000);

        assertThat(got).extracting(StreamEntry::keyString).containsExactlyElementsOf(keys);
        assertThat(got.get(9).valueString()).isEqualTo("v9");
        assertThat(node.count(Opcode.TRAVERSE)).isEqualTo(3);
    }

    @Test
    void pagedRangeStopsAtTheEndKey() {
        List<String> keys = fill(10);
        node.pageBudget(2);

        List<StreamEntry> got = client.traverse(keys.get(1), keys.get(6), 100);

        assertThat(got).extracting(StreamEntry::keyString).containsExactlyElementsOf(keys.subList(1, 6));
    }

    @Test
    void streamIsLazy() {
        fill(2500);

        try (Stream<StreamEntry> s = client.traverseStream(new byte[0], null)) {
            assertThat(node.count(Opcode.TRAVERSE)).as("nothing fetched before consumption").isZero();
            assertThat(s.limit(5).map(StreamEntry::keyString)).containsExactly("k00000", "k00001", "k00002",
                    "k00003", "k00004");
        }
        assertThat(node.count(Opcode.TRAVERSE)).isEqualTo(1);
    }

    @Test
    void streamFetchesTheNextPageOnlyWhenNeeded() {
        fill(2500);
        Iterator<StreamEntry> it = client.traverseStream(null, null).iterator();

        for (int i = 0; i < TraverseCursor.PAGE_SIZE; i++) {
            it.next();
        }
        assertThat(node.count(Opcode.TRAVERSE)).isEqualTo(1);
        assertThat(it.next().keyString()).isEqualTo("k01000");
        assertThat(node.count(Opcode.TRAVERSE)).isEqualTo(2);
    }

    @Test
    void streamIsCompleteAndOrderedAcrossPagesAndPageCuts() {
        List<String> keys = fill(2500);
        node.pageBudget(700);

        List<String> got = client.traverseStream(new byte[0], null).map(StreamEntry::keyString).toList();

        assertThat(got).containsExactlyElementsOf(keys);
    }

    @Test
    void streamHonoursTheEndKey() {
        List<String> keys = fill(1500);

        List<String> got = client.traverseStream(new byte[0], keys.get(1200).getBytes()).map(StreamEntry::keyString)
                .toList();

        assertThat(got).containsExactlyElementsOf(keys.subList(0, 1200));
    }

    @Test
    void streamOfAnEmptyRangeIsEmpty() {
        assertThat(client.traverseStream(new byte[0], null)).isEmpty();
    }
}
