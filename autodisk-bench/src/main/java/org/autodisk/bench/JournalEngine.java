package org.autodisk.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.rocksdb.CompressionType;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * The two journals {@link JournalBench} compares, reduced to what the comparison needs: write a group of entries
 * durably with one fsync, truncate a ledger below an entry, read everything back (checking CRCs).
 */
abstract class JournalEngine implements AutoCloseable {

    /** One entry: ledger, entry id, payload. */
    record Entry(long ledger, long entry, byte[] value) {
    }

    abstract void write(List<Entry> group) throws IOException;

    abstract void truncate(long ledger, long below) throws IOException;

    abstract long readAll() throws IOException;

    @Override
    public abstract void close() throws IOException;

    static JournalEngine segments(Path dir) {
        return new Segments(dir);
    }

    static JournalEngine rocksdb(Path dir) throws IOException {
        return new Rocks(dir);
    }

    static void deleteTree(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /**
     * Own segment files: frames {@code [length][ledger][entry][crc][payload]} appended to the current segment, one
     * {@code force} per group; an index in memory (ledger to entry to segment); a segment whose every ledger is
     * truncated past its entries is deleted.
     */
    private static final class Segments extends JournalEngine {

        private static final long SEGMENT_BYTES = 64L << 20;
        private static final int PREALLOCATE = 4 << 20;
        private static final int HEADER = 4 + 8 + 8 + 4;

        private final Path dir;
        private final TreeMap<Integer, Map<Long, Long>> lastPerSegment = new TreeMap<>();
        private final Map<Long, TreeMap<Long, Integer>> index = new HashMap<>();
        private final Map<Long, Long> truncatedBelow = new HashMap<>();
        private FileChannel current;
        private long position;
        private long allocated;
        private int segment = -1;
        private ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20);

        Segments(Path dir) {
            this.dir = dir;
        }

        @Override
        void write(List<Entry> group) throws IOException {
            if (current == null || position >= SEGMENT_BYTES) {
                roll();
            }
            buffer.clear();
            CRC32C crc = new CRC32C();
            for (Entry e : group) {
                if (buffer.remaining() < HEADER + e.value().length) {
                    buffer = ByteBuffer.allocateDirect(buffer.capacity() * 2).put(buffer.flip());
                }
                crc.reset();
                crc.update(e.value());
                buffer.putInt(HEADER + e.value().length).putLong(e.ledger()).putLong(e.entry())
                        .putInt((int) crc.getValue()).put(e.value());
                index.computeIfAbsent(e.ledger(), l -> new TreeMap<>()).put(e.entry(), segment);
                lastPerSegment.get(segment).merge(e.ledger(), e.entry(), Math::max);
            }
            buffer.flip();
            preallocate(buffer.remaining());
            while (buffer.hasRemaining()) {
                position += current.write(buffer, position);
            }
            current.force(false);
        }

        /** Zeros ahead of the writes, as journals do, so that an fsync need not also change the file's size. */
        private void preallocate(int bytes) throws IOException {
            while (position + bytes > allocated) {
                ByteBuffer zeros = ByteBuffer.allocateDirect(PREALLOCATE);
                while (zeros.hasRemaining()) {
                    allocated += current.write(zeros, allocated);
                }
            }
        }

        private void roll() throws IOException {
            if (current != null) {
                current.close();
            }
            segment++;
            current = FileChannel.open(dir.resolve(segment + ".seg"), StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE);
            lastPerSegment.put(segment, new HashMap<>());
            position = 0;
            allocated = 0;
        }

        @Override
        void truncate(long ledger, long below) throws IOException {
            truncatedBelow.merge(ledger, below, Math::max);
            TreeMap<Long, Integer> entries = index.get(ledger);
            if (entries != null) {
                entries.headMap(below).clear();
            }
            for (var it = lastPerSegment.entrySet().iterator(); it.hasNext(); ) {
                var s = it.next();
                if (s.getKey() != segment && s.getValue().entrySet().stream()
                        .allMatch(l -> truncatedBelow.getOrDefault(l.getKey(), 0L) > l.getValue())) {
                    Files.delete(dir.resolve(s.getKey() + ".seg"));
                    it.remove();
                }
            }
        }

        @Override
        long readAll() throws IOException {
            long n = 0;
            ByteBuffer header = ByteBuffer.allocate(HEADER);
            CRC32C crc = new CRC32C();
            for (int s : new ArrayList<>(lastPerSegment.keySet())) {
                try (FileChannel ch = FileChannel.open(dir.resolve(s + ".seg"), StandardOpenOption.READ)) {
                    long pos = 0;
                    while (pos < ch.size()) {
                        header.clear();
                        ch.read(header, pos);
                        header.flip();
                        int len = header.getInt();
                        if (len == 0) {
                            break;
                        }
                        ByteBuffer payload = ByteBuffer.allocate(len - HEADER);
                        ch.read(payload, pos + HEADER);
                        crc.reset();
                        crc.update(payload.flip());
                        if ((int) crc.getValue() != header.getInt(20)) {
                            throw new IOException("CRC mismatch in segment " + s + " at " + pos);
                        }
                        pos += len;
                        n++;
                    }
                }
            }
            return n;
        }

        @Override
        public void close() throws IOException {
            if (current != null) {
                current.close();
            }
        }
    }

    /** RocksDB: key {@code ledger, entry} (big-endian), one synced write batch per group, range deletes. */
    private static final class Rocks extends JournalEngine {

        private final Options options;
        private final RocksDB db;
        private final WriteOptions sync;

        Rocks(Path dir) throws IOException {
            RocksDB.loadLibrary();
            sync = new WriteOptions().setSync(true);
            options = new Options().setCreateIfMissing(true).setCompressionType(CompressionType.NO_COMPRESSION);
            try {
                db = RocksDB.open(options, dir.toString());
            } catch (RocksDBException e) {
                throw new IOException(e);
            }
        }

        private static byte[] key(long ledger, long entry) {
            return ByteBuffer.allocate(16).putLong(ledger).putLong(entry).array();
        }

        @Override
        void write(List<Entry> group) throws IOException {
            try (WriteBatch batch = new WriteBatch()) {
                CRC32C crc = new CRC32C();
                for (Entry e : group) {
                    crc.reset();
                    crc.update(e.value());
                    byte[] v = ByteBuffer.allocate(4 + e.value().length).putInt((int) crc.getValue()).put(e.value())
                            .array();
                    batch.put(key(e.ledger(), e.entry()), v);
                }
                db.write(sync, batch);
            } catch (RocksDBException e) {
                throw new IOException(e);
            }
        }

        @Override
        void truncate(long ledger, long below) throws IOException {
            try {
                db.deleteRange(key(ledger, 0), key(ledger, below));
            } catch (RocksDBException e) {
                throw new IOException(e);
            }
        }

        @Override
        long readAll() throws IOException {
            long n = 0;
            CRC32C crc = new CRC32C();
            try (RocksIterator it = db.newIterator()) {
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    byte[] v = it.value();
                    crc.reset();
                    crc.update(v, 4, v.length - 4);
                    if ((int) crc.getValue() != ByteBuffer.wrap(v).getInt()) {
                        throw new IOException("CRC mismatch");
                    }
                    n++;
                }
            }
            return n;
        }

        @Override
        public void close() {
            db.close();
            sync.close();
            options.close();
        }
    }
}
