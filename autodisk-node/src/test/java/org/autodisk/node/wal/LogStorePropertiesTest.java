package org.autodisk.node.wal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.autodisk.node.wal.Recs.hex;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.autodisk.node.wire.LogRecord;

/** Random batches of random records survive append, close, reopen and paged reads unchanged. */
class LogStorePropertiesTest {

    @Property(tries = 40)
    void randomBatchesRoundTripThroughReopen(@ForAll("batches") List<List<Shape>> batches,
            @ForAll @IntRange(min = 1024, max = 8192) int segmentBytes,
            @ForAll @IntRange(min = 1, max = 17) int pageRecords) throws IOException {
        Path dir = Files.createTempDirectory("wal-property");
        try {
            SegmentOptions options = SegmentOptions.defaults().withSegmentBytes(segmentBytes);
            List<LogRecord> all = new ArrayList<>();
            try (LogStore store = LogStore.segments(dir, "l1", options)) {
                List<CompletableFuture<Long>> futures = new ArrayList<>();
                for (List<Shape> batch : batches) {
                    List<LogRecord> records = toRecords(batch, all.isEmpty() ? 0 : all.get(all.size() - 1).lsn());
                    all.addAll(records);
                    futures.add(store.append("d1", records));
                }
                futures.forEach(Recs::join);
            }
            try (LogStore store = LogStore.segments(dir, "l1", options)) {
                assertThat(hex(readInPages(store, pageRecords))).isEqualTo(hex(all));
                assertThat(store.lastLsn("d1")).isEqualTo(all.isEmpty() ? 0 : all.get(all.size() - 1).lsn());
                assertThat(store.firstLsn("d1")).isEqualTo(all.isEmpty() ? 0 : all.get(0).lsn());
            }
        } finally {
            delete(dir);
        }
    }

    @Provide
    Arbitrary<List<List<Shape>>> batches() {
        Arbitrary<Shape> shape = Combinators.combine(Arbitraries.longs().between(1, 3),
                Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(40),
                Arbitraries.bytes().array(byte[].class).ofMaxSize(1500),
                Arbitraries.of(LogRecord.PUT, LogRecord.DELETE)).as(Shape::new);
        return shape.list().ofMaxSize(12).list().ofMaxSize(15);
    }

    private static List<LogRecord> toRecords(List<Shape> shapes, long lastLsn) {
        List<LogRecord> out = new ArrayList<>();
        long lsn = lastLsn;
        for (Shape s : shapes) {
            lsn += s.gap();
            out.add(new LogRecord((int) lsn % 5, lsn / 10, lsn, s.op(), s.key(), s.value()));
        }
        return out;
    }

    private static List<LogRecord> readInPages(LogStore store, int pageRecords) {
        List<LogRecord> out = new ArrayList<>();
        long from = 0;
        while (true) {
            List<LogRecord> page = store.read("d1", from, pageRecords, 4096);
            if (page.isEmpty()) {
                return out;
            }
            assertThat(page.size()).isLessThanOrEqualTo(pageRecords);
            out.addAll(page);
            from = page.get(page.size() - 1).lsn() + 1;
        }
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /** One random record before its LSN is assigned. */
    record Shape(long gap, byte[] key, byte[] value, int op) {
    }
}
