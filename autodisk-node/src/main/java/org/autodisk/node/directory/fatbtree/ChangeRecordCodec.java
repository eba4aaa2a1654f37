package org.autodisk.node.directory.fatbtree;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.autodisk.core.protocol.ProtocolException;
import org.autodisk.core.protocol.Status;

/**
 * The wire form of a change's record: the batches of every node one structure change writes, each page once. It is
 * i32 length and a {@link PageBatchCodec} batch of the change holding every page any node's batch puts, then u16 the
 * number of nodes and per node: u8 length and UTF-8 id, u16 count and u16 indexes into those pages, u16 count and
 * (i64 id, i64 version) drops, i64 the new root's id or -1. A root split puts the same pages on every node: so the
 * record stays the size of a few pages, not of the nodes times the pages.
 */
final class ChangeRecordCodec {

    private static final int MAX_ID = 255;

    private ChangeRecordCodec() {
    }

    /**
     * Encodes a change's batches.
     *
     * @param change  the change
     * @param batches its batches by node
     * @return the bytes
     */
    static byte[] encode(long change, Map<String, PageBatch> batches) {
        Map<List<Long>, Integer> index = new LinkedHashMap<>();
        List<Page> pages = new ArrayList<>();
        batches.values().forEach(batch -> batch.puts().forEach(p -> {
            if (index.putIfAbsent(List.of(p.id(), p.version()), pages.size()) == null) {
                pages.add(p);
            }
        }));
        byte[] table = PageBatchCodec.encode(new PageBatch(change, pages, List.of(), -1));
        int size = 4 + table.length + 2;
        for (Map.Entry<String, PageBatch> e : batches.entrySet()) {
            size += 1 + id(e.getKey()).length + 2 + 2 * e.getValue().puts().size() + 2 + 16 * e.getValue().drops()
                    .size() + 8;
        }
        ByteBuffer b = ByteBuffer.allocate(size).putInt(table.length).put(table).putShort(
                PageMessageCodec.count(batches.size()));
        batches.forEach((node, batch) -> {
            byte[] id = id(node);
            b.put((byte) id.length).put(id).putShort(PageMessageCodec.count(batch.puts().size()));
            batch.puts().forEach(p -> b.putShort(PageMessageCodec.count(index.get(List.of(p.id(), p.version())))));
            b.putShort(PageMessageCodec.count(batch.drops().size()));
            batch.drops().forEach(d -> b.putLong(d.id()).putLong(d.version()));
            b.putLong(batch.root());
        });
        return b.array();
    }

    private static byte[] id(String node) {
        byte[] id = node.getBytes(StandardCharsets.UTF_8);
        if (id.length == 0 || id.length > MAX_ID) {
            throw new IllegalArgumentException("a node id has 1 to " + MAX_ID + " bytes: '" + node + "'");
        }
        return id;
    }

    /**
     * Decodes a record from a buffer, leaving it after the record.
     *
     * @param b      the buffer
     * @param change the change the record must be of
     * @return the batches by node, in the order they were written
     * @throws ProtocolException MALFORMED if the record is cut short, of another change, names no node, a node twice
     *                           or a page it does not hold
     */
    static Map<String, PageBatch> decode(ByteBuffer b, long change) {
        try {
            PageBatch all = PageBatchCodec.decodePrefixed(b, "its pages", ChangeRecordCodec::malformed);
            if (all.change() != change) {
                throw malformed("it is of change " + all.change() + ", not " + change);
            }
            Map<String, PageBatch> out = new LinkedHashMap<>();
            for (int n = b.getShort() & 0xffff; n > 0; n--) {
                String node = node(b);
                if (out.put(node, batch(b, all)) != null) {
                    throw malformed("it names " + node + " twice");
                }
            }
            return out;
        } catch (BufferUnderflowException e) {
            throw malformed("it ends early");
        }
    }

    private static String node(ByteBuffer b) {
        int len = b.get() & 0xff;
        if (len == 0) {
            throw malformed("a batch names no node");
        }
        byte[] id = new byte[len];
        b.get(id);
        return new String(id, StandardCharsets.UTF_8);
    }

    private static PageBatch batch(ByteBuffer b, PageBatch all) {
        List<Page> puts = new ArrayList<>();
        for (int n = b.getShort() & 0xffff; n > 0; n--) {
            int i = b.getShort() & 0xffff;
            if (i >= all.puts().size()) {
                throw malformed("a batch puts page " + i + " of " + all.puts().size());
            }
            puts.add(all.puts().get(i));
        }
        List<PageBatch.Dropped> drops = new ArrayList<>();
        for (int n = b.getShort() & 0xffff; n > 0; n--) {
            drops.add(new PageBatch.Dropped(b.getLong(), b.getLong()));
        }
        return new PageBatch(all.change(), puts, drops, b.getLong());
    }

    private static ProtocolException malformed(String what) {
        return new ProtocolException(Status.MALFORMED, "a directory change record is malformed: " + what);
    }
}
