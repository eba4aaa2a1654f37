package org.autodisk.node.directory.fatbtree;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.autodisk.node.store.StoreException;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * The page store of a data node: a RocksDB of its own under {@code <data-dir>/index}, every write synced. A page is
 * kept under {@code 'p'} and its id, a pending change under {@code 'q'} and its number, each encoded as page batches
 * ({@link PageBatchCodec}), the record of another node's change under {@code 'k'} and its number, the released
 * changes of a coordinator under {@code 'z'} and its id; {@code format} holds the store's format ({@link #FORMAT}),
 * written when the store is created (or first opened by a build that knows it) and checked at every open.
 */
final class RocksPageStore implements PageStore {

    private static final byte PAGE = 'p';
    private static final byte PENDING = 'q';
    private static final byte KEPT = 'k';
    private static final byte RELEASED = 'z';
    private static final byte[] ROOT = "root".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] RESERVED = "reserved".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] FORMAT_KEY = "format".getBytes(StandardCharsets.US_ASCII);
    /** The store format this build writes and reads; raise it with every change of the stored layouts. */
    static final int FORMAT = 1;

    private final Path dir;
    private final Options options;
    private final WriteOptions sync;
    private final RocksDB db;

    private RocksPageStore(Path dir, Options options, WriteOptions sync, RocksDB db) {
        this.dir = dir;
        this.options = options;
        this.sync = sync;
        this.db = db;
    }

    /**
     * Opens (or creates) the store of a node.
     *
     * @param dir the directory
     * @return the store
     * @throws StoreException if it cannot be opened
     */
    static RocksPageStore open(Path dir) {
        RocksDB.loadLibrary();
        Options options = new Options().setCreateIfMissing(true);
        WriteOptions sync = new WriteOptions().setSync(true);
        RocksDB db = null;
        boolean opened = false;
        try {
            Files.createDirectories(dir);
            db = RocksDB.open(options, dir.toString());
            checkFormat(dir, db, sync);
            opened = true;
            return new RocksPageStore(dir, options, sync, db);
        } catch (RocksDBException | IOException e) {
            throw new StoreException("cannot open the index page store at " + dir + ": " + e.getMessage(), e);
        } finally {
            if (!opened) {
                if (db != null) {
                    db.close();
                }
                options.close();
                sync.close();
            }
        }
    }

    /** Records the format in a store without one (created now, or by a build from before it); refuses another. */
    private static void checkFormat(Path dir, RocksDB db, WriteOptions sync) throws RocksDBException {
        byte[] v = db.get(FORMAT_KEY);
        if (v == null) {
            db.put(sync, FORMAT_KEY, ByteBuffer.allocate(Integer.BYTES).putInt(FORMAT).array());
            return;
        }
        int format = v.length == Integer.BYTES ? ByteBuffer.wrap(v).getInt() : -1;
        if (format != FORMAT) {
            throw new StoreException("the index page store at " + dir + " is of format " + format + "; this build "
                    + "reads format " + FORMAT + " only: start the node with the build that wrote it, or remove " + dir
                    + " and the node takes its index copies up again from its peers", null);
        }
    }

    @Override
    public Contents load() {
        Map<Long, Page> pages = new HashMap<>();
        Map<Long, Map<String, PageBatch>> pending = new TreeMap<>();
        try (RocksIterator it = db.newIterator()) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                byte[] k = it.key();
                if (k.length == 9 && k[0] == PAGE) {
                    Page p = PageBatchCodec.decode(it.value()).puts().get(0);
                    pages.put(p.id(), p);
                } else if (k.length == 9 && k[0] == PENDING) {
                    pending.put(ByteBuffer.wrap(k, 1, 8).getLong(), decodePending(it.value()));
                }
            }
        }
        return new Contents(pages, number(ROOT, -1), pending, number(RESERVED, 0));
    }

    private long number(byte[] key, long absent) {
        byte[] v = get(key);
        return v == null ? absent : ByteBuffer.wrap(v).getLong();
    }

    private byte[] get(byte[] key) {
        try {
            return db.get(key);
        } catch (RocksDBException e) {
            throw failed("read", e);
        }
    }

    @Override
    public void write(List<Page> puts, List<Long> removed, long root) {
        try (WriteBatch b = new WriteBatch()) {
            for (Page p : puts) {
                b.put(key(PAGE, p.id()), PageBatchCodec.encode(new PageBatch(0, List.of(p), List.of(), -1)));
            }
            for (long id : removed) {
                b.delete(key(PAGE, id));
            }
            if (root >= 0) {
                b.put(ROOT, longBytes(root));
            }
            db.write(sync, b);
        } catch (RocksDBException e) {
            throw failed("write", e);
        }
    }

    @Override
    public void pending(long change, Map<String, PageBatch> batches) {
        put(key(PENDING, change), encodePending(batches));
    }

    @Override
    public void done(long change) {
        try {
            db.delete(sync, key(PENDING, change));
        } catch (RocksDBException e) {
            throw failed("write", e);
        }
    }

    @Override
    public Records records() {
        Map<Long, Kept> kept = new TreeMap<>();
        Map<String, List<Long>> released = new TreeMap<>();
        try (RocksIterator it = db.newIterator()) {
            for (it.seek(new byte[] {KEPT}); it.isValid() && it.key()[0] == KEPT; it.next()) {
                byte[] v = it.value();
                int len = v[0] & 0xff;
                byte[] rest = Arrays.copyOfRange(v, 1 + len, v.length);
                kept.put(ByteBuffer.wrap(it.key(), 1, 8).getLong(),
                        new Kept(new String(v, 1, len, StandardCharsets.UTF_8), decodePending(rest)));
            }
            for (it.seek(new byte[] {RELEASED}); it.isValid() && it.key()[0] == RELEASED; it.next()) {
                ByteBuffer v = ByteBuffer.wrap(it.value());
                List<Long> changes = new ArrayList<>();
                while (v.hasRemaining()) {
                    changes.add(v.getLong());
                }
                released.put(new String(it.key(), 1, it.key().length - 1, StandardCharsets.UTF_8), changes);
            }
        }
        return new Records(kept, released);
    }

    @Override
    public void keep(long change, Kept kept) {
        try (WriteOptions unsynced = new WriteOptions()) {
            byte[] id = kept.coordinator().getBytes(StandardCharsets.UTF_8);
            if (id.length > 255) {
                throw new IllegalArgumentException("a node id has at most 255 bytes: " + kept.coordinator());
            }
            byte[] batches = encodePending(kept.batches());
            db.put(unsynced, key(KEPT, change), ByteBuffer.allocate(1 + id.length + batches.length)
                    .put((byte) id.length).put(id).put(batches).array());
        } catch (RocksDBException e) {
            throw failed("write", e);
        }
    }

    @Override
    public void released(String coordinator, long change, List<Long> last) {
        ByteBuffer v = ByteBuffer.allocate(8 * last.size());
        last.forEach(v::putLong);
        try (WriteBatch b = new WriteBatch()) {
            b.delete(key(KEPT, change));
            b.put(releasedKey(coordinator), v.array());
            db.write(sync, b);
        } catch (RocksDBException e) {
            throw failed("write", e);
        }
    }

    @Override
    public void forget(String coordinator, List<Long> changes) {
        try (WriteBatch b = new WriteBatch()) {
            for (long c : changes) {
                b.delete(key(KEPT, c));
            }
            b.delete(releasedKey(coordinator));
            db.write(sync, b);
        } catch (RocksDBException e) {
            throw failed("write", e);
        }
    }

    @Override
    public void sync() {
        try {
            db.flushWal(true);
        } catch (RocksDBException e) {
            throw failed("sync", e);
        }
    }

    private static byte[] releasedKey(String coordinator) {
        byte[] id = coordinator.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(1 + id.length).put(RELEASED).put(id).array();
    }

    @Override
    public void reserve(long upTo) {
        put(RESERVED, longBytes(upTo));
    }

    private void put(byte[] key, byte[] value) {
        try {
            db.put(sync, key, value);
        } catch (RocksDBException e) {
            throw failed("write", e);
        }
    }

    private StoreException failed(String what, RocksDBException e) {
        return new StoreException("cannot " + what + " the index page store at " + dir + ": " + e.getMessage(), e);
    }

    private static byte[] key(byte kind, long id) {
        return ByteBuffer.allocate(9).put(kind).putLong(id).array();
    }

    private static byte[] longBytes(long v) {
        return ByteBuffer.allocate(8).putLong(v).array();
    }

    private static byte[] encodePending(Map<String, PageBatch> batches) {
        Map<byte[], byte[]> parts = new LinkedHashMap<>();
        int size = 4;
        for (Map.Entry<String, PageBatch> e : batches.entrySet()) {
            byte[] id = e.getKey().getBytes(StandardCharsets.UTF_8);
            byte[] batch = PageBatchCodec.encode(e.getValue());
            parts.put(id, batch);
            size += 2 + id.length + 4 + batch.length;
        }
        ByteBuffer b = ByteBuffer.allocate(size).putInt(parts.size());
        parts.forEach((id, batch) -> b.putShort((short) id.length).put(id).putInt(batch.length).put(batch));
        return b.array();
    }

    private static Map<String, PageBatch> decodePending(byte[] value) {
        ByteBuffer b = ByteBuffer.wrap(value);
        Map<String, PageBatch> out = new LinkedHashMap<>();
        for (int n = b.getInt(); n > 0; n--) {
            byte[] id = new byte[b.getShort()];
            b.get(id);
            byte[] batch = new byte[b.getInt()];
            b.get(batch);
            out.put(new String(id, StandardCharsets.UTF_8), PageBatchCodec.decode(batch));
        }
        return out;
    }

    @Override
    public void close() {
        db.close();
        sync.close();
        options.close();
    }
}
