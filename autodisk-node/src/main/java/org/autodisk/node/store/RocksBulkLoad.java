package org.autodisk.node.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.autodisk.core.protocol.KeyValue;
import org.rocksdb.EnvOptions;
import org.rocksdb.IngestExternalFileOptions;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.rocksdb.SstFileWriter;

/**
 * A bulk load into RocksDB: the streams go into an SST file in the store's {@code bulk} directory (written with the
 * column family's own table options, synced on finish) that {@code ingestExternalFile} moves into the store; a span
 * nothing else holds lands on the bottom level, without compaction, memtable or flush.
 */
final class RocksBulkLoad implements BulkLoad {

    private static final AtomicLong FILES = new AtomicLong();

    private final RocksDB db;
    private final Options options;
    private final Path dir;
    private final Object applyLock;
    private final AtomicLong count;
    private final RocksTransfer transfer;
    private final List<byte[]> keys = new ArrayList<>();
    private SstFileWriter writer;
    private EnvOptions env;
    private Path file;

    RocksBulkLoad(RocksDB db, Options options, Path dir, Object applyLock, AtomicLong count, RocksTransfer transfer) {
        this.db = db;
        this.options = options;
        this.dir = dir;
        this.applyLock = applyLock;
        this.count = count;
        this.transfer = transfer;
    }

    @Override
    public void add(List<KeyValue> ascending) {
        try {
            if (writer == null) {
                open();
            }
            for (KeyValue kv : ascending) {
                writer.put(kv.key(), kv.value());
                keys.add(kv.key());
            }
        } catch (RocksDBException | IOException e) {
            throw new StoreException("bulk load into " + file + " failed: " + e.getMessage(), e);
        }
    }

    private void open() throws RocksDBException, IOException {
        Files.createDirectories(dir);
        file = dir.resolve("load-" + ProcessHandle.current().pid() + "-" + FILES.incrementAndGet() + ".sst");
        env = new EnvOptions();
        writer = new SstFileWriter(env, options);
        writer.open(file.toString());
    }

    @Override
    public boolean pending() {
        return !keys.isEmpty();
    }

    @Override
    public long finish(Map<Long, Long> given) {
        try {
            long created = 0;
            if (!keys.isEmpty()) {
                writer.finish();
                created = ingest();
            }
            if (!given.isEmpty()) {
                transfer.ingest(List.of(), given);
            }
            return created;
        } catch (RocksDBException e) {
            throw new StoreException("bulk load of " + keys.size() + " streams from " + file + " failed: "
                    + e.getMessage(), e);
        } finally {
            reset();
        }
    }

    /** Ingests the finished file; counts the streams it adds (only keys the span already holds are not new). */
    private long ingest() throws RocksDBException {
        synchronized (applyLock) {
            Set<ByteBuffer> present = present(keys.get(0), keys.get(keys.size() - 1));
            long created = keys.stream().filter(k -> !present.contains(ByteBuffer.wrap(k))).count();
            try (IngestExternalFileOptions o = new IngestExternalFileOptions().setMoveFiles(true)
                    .setSnapshotConsistency(true).setAllowGlobalSeqNo(true).setAllowBlockingFlush(true)) {
                db.ingestExternalFile(List.of(file.toString()), o);
            }
            count.addAndGet(created);
            return created;
        }
    }

    private Set<ByteBuffer> present(byte[] first, byte[] last) {
        Set<ByteBuffer> out = new HashSet<>();
        try (Slice upper = new Slice(Arrays.copyOf(last, last.length + 1));
                ReadOptions ro = new ReadOptions().setIterateUpperBound(upper);
                RocksIterator it = db.newIterator(ro)) {
            for (it.seek(first); it.isValid(); it.next()) {
                out.add(ByteBuffer.wrap(it.key()));
            }
        }
        return out;
    }

    @Override
    public void close() {
        reset();
        options.close();
    }

    private void reset() {
        keys.clear();
        if (writer != null) {
            writer.close();
            env.close();
            writer = null;
        }
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                // a leftover file is removed when the store opens next
            }
            file = null;
        }
    }
}
