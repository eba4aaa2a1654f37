package org.autodisk.node.directory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.autodisk.core.Keys;
import org.junit.jupiter.api.Test;

class RangeMapTest {

    private static List<String> owners(int n) {
        List<String> ids = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            ids.add("d" + i);
        }
        return ids;
    }

    private static List<byte[]> sortedDistinct(List<byte[]> raw) {
        TreeSet<byte[]> set = new TreeSet<>(Keys.ORDER);
        raw.stream().filter(p -> p.length > 0).forEach(set::add);
        return new ArrayList<>(set);
    }

    @Property
    void everyKeyHasExactlyOneOwningRange(@ForAll @IntRange(min = 1, max = 9) int nodes,
            @ForAll @Size(max = 12) List<@Size(min = 1, max = 4) byte[]> rawPoints,
            @ForAll @Size(min = 1, max = 6) byte[] key) {
        RangeMap map = RangeMap.initial(owners(nodes), sortedDistinct(rawPoints));
        long containing = map.ranges().stream().filter(r -> r.contains(key)).count();
        assertThat(containing).isEqualTo(1);
        assertThat(map.lookup(key).contains(key)).isTrue();
    }

    @Property
    void evenSplitGivesEveryNodeOneRangeAndCoversAllFirstBytes(@ForAll @IntRange(min = 1, max = 64) int nodes) {
        RangeMap map = RangeMap.initial(owners(nodes), List.of());
        assertThat(map.ranges()).hasSize(nodes);
        assertThat(map.ranges().stream().map(KeyRange::owner).distinct().count()).isEqualTo(nodes);
        for (int b = 0; b < 256; b++) {
            KeyRange r = map.lookup(new byte[] {(byte) b, 1});
            assertThat(r.contains(new byte[] {(byte) b})).isTrue();
        }
    }

    @Property
    void overlappingListsExactlyTheRangesThatHoldKeysOfTheInterval(@ForAll @IntRange(min = 1, max = 5) int nodes,
            @ForAll @Size(min = 1, max = 3) byte[] a, @ForAll @Size(min = 1, max = 3) byte[] b) {
        Assume.that(Keys.compare(a, b) != 0);
        RangeMap map = RangeMap.initial(owners(nodes), List.of());
        byte[] from = Keys.compare(a, b) <= 0 ? a : b;
        byte[] to = Keys.compare(a, b) <= 0 ? b : a;
        List<KeyRange> over = map.overlapping(from, to);
        assertThat(over.get(0)).isEqualTo(map.lookup(from));
        for (KeyRange r : map.ranges()) {
            boolean intersects = (r.high() == null || Keys.compare(from, r.high()) < 0)
                    && Keys.compare(r.low(), to) < 0;
            assertThat(over.contains(r)).as("range %s", r).isEqualTo(intersects || r.equals(map.lookup(from)));
        }
    }

    @Test
    void unsignedOrderPutsHighBytesInTheLastRange() {
        RangeMap map = RangeMap.initial(owners(2), List.of());
        assertThat(map.lookup(new byte[] {(byte) 0xFF}).owner()).isEqualTo("d2");
        assertThat(map.lookup(new byte[] {0x01}).owner()).isEqualTo("d1");
    }

    @Test
    void splitPointsAssignOwnersRoundRobin() {
        RangeMap map = RangeMap.initial(owners(2), List.of(Keys.utf8("h"), Keys.utf8("p")));
        assertThat(map.lookup(Keys.utf8("apple")).owner()).isEqualTo("d1");
        assertThat(map.lookup(Keys.utf8("kiwi")).owner()).isEqualTo("d2");
        assertThat(map.lookup(Keys.utf8("zebra")).owner()).isEqualTo("d1");
        assertThat(map.lookup(Keys.utf8("h")).id()).isEqualTo(1);
    }

    @Test
    void rejectsRangesThatDoNotTileTheKeySpace() {
        KeyRange a = new KeyRange(0, new byte[0], Keys.utf8("m"), "d1", 1);
        KeyRange gap = new KeyRange(1, Keys.utf8("n"), null, "d2", 1);
        assertThatThrownBy(() -> new RangeMap(1, List.of(a, gap))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("do not meet");
        assertThatThrownBy(() -> new RangeMap(1, List.of(a))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void directoryInstallsOnlyNewerMaps() {
        RangeMap v1 = RangeMap.initial(owners(2), List.of());
        Directory dir = Directory.range(v1);
        List<KeyRange> moved = new ArrayList<>(v1.ranges());
        moved.set(0, moved.get(0).movedTo("d2", 2));
        RangeMap v2 = new RangeMap(2, moved);
        assertThat(dir.install(v2)).isTrue();
        assertThat(dir.install(v1)).isFalse();
        assertThat(dir.current().lookup(new byte[] {1}).owner()).isEqualTo("d2");
        assertThat(dir.current().lookup(new byte[] {1}).epoch()).isEqualTo(2);
    }
}
