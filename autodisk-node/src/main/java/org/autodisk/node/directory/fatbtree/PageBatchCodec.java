package org.autodisk.node.directory.fatbtree;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.autodisk.core.Limits;
import org.autodisk.core.protocol.ProtocolException;
import org.autodisk.core.protocol.Status;

/**
 * The wire form of a page batch: change, root, a table of the node ids its copy sets name (each entry then names its
 * copy set by two-byte indexes), the pages put and the pages dropped. Decoding checks every length and value and
 * answers MALFORMED with what it found; it never reads past the body.
 */
final class PageBatchCodec {

    /** Levels a tree may have (far more than a fanout of 3 needs for 2^63 leaves). */
    static final int MAX_LEVEL = 63;

    private static final int MAX_ID = 255;

    private PageBatchCodec() {
    }

    /**
     * Encodes a batch.
     *
     * @param batch the batch
     * @return its bytes
     */
    static byte[] encode(PageBatch batch) {
        Map<String, Integer> table = new LinkedHashMap<>();
        batch.puts().forEach(p -> p.entries().forEach(e -> e.copySet().forEach(n -> table.putIfAbsent(n,
                table.size()))));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeLong(batch.change());
            out.writeLong(batch.root());
            out.writeShort(table.size());
            for (String n : table.keySet()) {
                byte[] id = n.getBytes(StandardCharsets.UTF_8);
                out.writeByte(id.length);
                out.write(id);
            }
            out.writeInt(batch.puts().size());
            for (Page p : batch.puts()) {
                page(out, p, table);
            }
            out.writeInt(batch.drops().size());
            for (PageBatch.Dropped d : batch.drops()) {
                out.writeLong(d.id());
                out.writeLong(d.version());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private static void page(DataOutputStream out, Page p, Map<String, Integer> table) throws IOException {
        out.writeLong(p.id());
        out.writeByte(p.level());
        out.writeLong(p.version());
        key(out, p.low());
        out.writeBoolean(p.high() != null);
        if (p.high() != null) {
            key(out, p.high());
        }
        out.writeShort(p.entries().size());
        for (Entry e : p.entries()) {
            key(out, e.low());
            out.writeLong(e.child());
            out.writeByte(e.copySet().size());
            for (String n : e.copySet()) {
                out.writeShort(table.get(n));
            }
        }
    }

    private static void key(DataOutputStream out, byte[] key) throws IOException {
        out.writeShort(key.length);
        out.write(key);
    }

    /**
     * Decodes a batch.
     *
     * @param body the bytes
     * @return the batch
     * @throws ProtocolException MALFORMED if the body is cut short, longer than its content, or holds an impossible
     *                           value (a level, a key length, a copy-set index, an empty page or copy set)
     */
    static PageBatch decode(byte[] body) {
        ByteBuffer b = ByteBuffer.wrap(body);
        try {
            long change = b.getLong();
            long root = b.getLong();
            List<String> table = table(b);
            List<Page> puts = new ArrayList<>();
            for (int i = count(b.getInt(), "pages", b); i > 0; i--) {
                puts.add(page(b, table));
            }
            List<PageBatch.Dropped> drops = new ArrayList<>();
            for (int i = count(b.getInt(), "drops", b); i > 0; i--) {
                drops.add(new PageBatch.Dropped(b.getLong(), b.getLong()));
            }
            if (b.hasRemaining()) {
                throw malformed(b.remaining() + " bytes after the last drop");
            }
            return new PageBatch(change, puts, drops, root);
        } catch (BufferUnderflowException e) {
            throw malformed("the body ends early (" + body.length + " bytes)");
        }
    }

    /**
     * Decodes a batch written after its i32 length, leaving the buffer after it.
     *
     * @param b         the buffer
     * @param what      what the batch is, for the error ("a batch", "a page")
     * @param malformed the caller's MALFORMED error for a length that does not fit
     * @return the batch
     * @throws ProtocolException MALFORMED if the length does not fit the buffer or the batch is malformed
     * @throws BufferUnderflowException if the length is cut short
     */
    static PageBatch decodePrefixed(ByteBuffer b, String what,
            Function<String, ProtocolException> malformed) {
        int len = b.getInt();
        if (len < 0 || len > b.remaining()) {
            throw malformed.apply(what + " of " + len + " bytes in " + b.remaining());
        }
        byte[] bytes = new byte[len];
        b.get(bytes);
        return decode(bytes);
    }

    private static List<String> table(ByteBuffer b) {
        int size = b.getShort() & 0xffff;
        List<String> out = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            int len = b.get() & 0xff;
            if (len == 0 || len > MAX_ID) {
                throw malformed("node id " + i + " of the copy-set table has " + len + " bytes");
            }
            byte[] id = new byte[len];
            b.get(id);
            out.add(new String(id, StandardCharsets.UTF_8));
        }
        return out;
    }

    private static Page page(ByteBuffer b, List<String> table) {
        long id = b.getLong();
        int level = b.get();
        if (level < 1 || level > MAX_LEVEL) {
            throw malformed("page " + id + " has level " + level + " (1 to " + MAX_LEVEL + ")");
        }
        long version = b.getLong();
        byte[] low = key(b);
        byte[] high = b.get() != 0 ? key(b) : null;
        int entries = b.getShort() & 0xffff;
        if (entries == 0) {
            throw malformed("page " + id + " has no entries");
        }
        List<Entry> out = new ArrayList<>();
        for (int i = 0; i < entries; i++) {
            out.add(entry(b, table, id));
        }
        return new Page(id, level, low, high, out, version);
    }

    private static Entry entry(ByteBuffer b, List<String> table, long page) {
        byte[] low = key(b);
        long child = b.getLong();
        int size = b.get() & 0xff;
        if (size == 0) {
            throw malformed("an entry of page " + page + " has an empty copy set");
        }
        List<String> copySet = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            int index = b.getShort() & 0xffff;
            if (index >= table.size()) {
                throw malformed("an entry of page " + page + " names node " + index + " of a table of "
                        + table.size());
            }
            copySet.add(table.get(index));
        }
        return new Entry(low, child, copySet);
    }

    private static byte[] key(ByteBuffer b) {
        int len = b.getShort() & 0xffff;
        if (len > Limits.MAX_KEY_BYTES) {
            throw malformed("a key of " + len + " bytes (at most " + Limits.MAX_KEY_BYTES + ")");
        }
        byte[] key = new byte[len];
        b.get(key);
        return key;
    }

    private static int count(int n, String what, ByteBuffer b) {
        if (n < 0 || n > b.remaining()) {
            throw malformed(n + " " + what + " in " + b.remaining() + " remaining bytes");
        }
        return n;
    }

    private static ProtocolException malformed(String what) {
        return new ProtocolException(Status.MALFORMED, "a directory page batch is malformed: " + what);
    }
}
