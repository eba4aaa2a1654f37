package org.autodisk.node.wal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.autodisk.node.wire.LogRecord;

/** Test records and helpers; records are compared by their encoded bytes (LogRecord holds arrays). */
final class Recs {

    private Recs() {
    }

    static LogRecord rec(long lsn) {
        return rec(lsn, String.format("v%06d", lsn));
    }

    static LogRecord rec(long lsn, String value) {
        return new LogRecord(7, 3, lsn, LogRecord.PUT, bytes(String.format("k%06d", lsn)), bytes(value));
    }

    static List<LogRecord> recs(long from, long toInclusive) {
        return LongStream.rangeClosed(from, toInclusive).mapToObj(Recs::rec).toList();
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static List<String> hex(List<LogRecord> records) {
        return records.stream().map(r -> HexFormat.of().formatHex(r.encode())).toList();
    }

    static List<Long> lsns(List<LogRecord> records) {
        return records.stream().map(LogRecord::lsn).toList();
    }

    static List<Long> range(long from, long toInclusive) {
        return LongStream.rangeClosed(from, toInclusive).boxed().toList();
    }

    static long append(LogStore store, String stream, List<LogRecord> records) {
        return join(store.append(stream, records));
    }

    /** Waits for a future; the timeout only keeps a broken build from hanging, it is not a timing assert. */
    static <T> T join(CompletableFuture<T> future) {
        try {
            return future.get(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        } catch (ExecutionException e) {
            throw new AssertionError("append failed: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new AssertionError("future not completed", e);
        }
    }

    /** Throwable of a failed future (waits for it). */
    static Throwable failure(CompletableFuture<?> future) {
        try {
            future.get(60, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (InterruptedException | TimeoutException e) {
            throw new AssertionError(e);
        }
        throw new AssertionError("the future completed successfully");
    }

    static List<LogRecord> readAll(LogStore store, String stream) {
        return store.read(stream, 0, Integer.MAX_VALUE, Long.MAX_VALUE);
    }

    static List<Path> segmentFiles(Path dir, String stream) throws IOException {
        try (Stream<Path> files = Files.list(dir.resolve(stream))) {
            return new ArrayList<>(files.filter(f -> f.toString().endsWith(".log")).sorted().toList());
        }
    }

    static long firstLsnOf(Path segment) {
        return Long.parseLong(segment.getFileName().toString().replace(".log", ""));
    }
}
