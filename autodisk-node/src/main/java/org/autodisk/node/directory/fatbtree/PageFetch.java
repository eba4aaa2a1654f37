package org.autodisk.node.directory.fatbtree;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.autodisk.core.protocol.ProtocolException;
import org.autodisk.core.protocol.Status;

/**
 * A page fetch: a data node that lost its index copies asks a peer for its copy of one page (or of its root), and
 * learns the highest change number of its own position the peer's copies name, so that it never numbers a change (and
 * the pages it creates) as one it made before, whether the peer is taking its own copies up, and the peer's metadata
 * version. Both bodies start with the u8 {@link PageFormat}. The wire form of a PAGE_FETCH request: u8 length and UTF-8
 * id of the asker, i64 page id ({@link #ROOT} for the root); of its answer: i64 highest change, i64 metadata version,
 * u8 1, i32 length and the page as a one-page {@link PageBatchCodec} batch, or u8 0 where the peer holds no copy, 2
 * where it holds none while taking its copies up; then u16 the number of records of the asker's changes the peer holds,
 * each i64 change and its {@link ChangeRecordCodec} form; then u16 the number of the asker's changes it was released
 * from, each i64.
 */
final class PageFetch {

    /** The page id that asks for the peer's root, whatever its id. */
    static final long ROOT = -1;

    private static final int MAX_ID = 255;
    private static final int NONE = 0;
    private static final int HELD = 1;
    private static final int TAKING_UP = 2;

    private PageFetch() {
    }

    /**
     * A peer's answer.
     *
     * @param page     its copy, {@code null} if it holds none
     * @param highest  the highest change number of the asker's position its copies name, 0 if none
     * @param takingUp whether the peer is itself taking its copies up (it holds none yet, rightly or not)
     * @param version  the metadata version the peer applied
     * @param records  to a root fetch: the records of the asker's changes the peer applied and was not released from,
     *                 by change (each node's batch); else none
     * @param released to a root fetch: the asker's changes the peer kept the record of and was released from (written
     *                 everywhere); else none
     */
    record Answer(Page page, long highest, boolean takingUp, long version,
            Map<Long, Map<String, PageBatch>> records, List<Long> released) {

        // copies the records
        Answer {
            records = Map.copyOf(records);
            released = List.copyOf(released);
        }

        /**
         * An answer without records.
         *
         * @param page     its copy, {@code null} if it holds none
         * @param highest  the highest change number of the asker's position its copies name
         * @param takingUp whether the peer is taking its copies up
         * @param version  the metadata version the peer applied
         */
        Answer(Page page, long highest, boolean takingUp, long version) {
            this(page, highest, takingUp, version, Map.of(), List.of());
        }

        /**
         * An answer of a peer that took its copies up, at metadata version 0.
         *
         * @param page    its copy, {@code null} if it holds none
         * @param highest the highest change number of the asker's position its copies name
         */
        Answer(Page page, long highest) {
            this(page, highest, false, 0);
        }

        /**
         * This answer with what a node keeps of the asker's changes.
         *
         * @param kept  the records the node keeps
         * @param asker the asker
         * @return the answer
         */
        Answer with(PeerRecords kept, String asker) {
            return new Answer(page, highest, takingUp, version, kept.of(asker), kept.releasedOf(asker));
        }
    }

    /**
     * A request as read.
     *
     * @param asker the node that asks
     * @param page  the page id, or {@link #ROOT}
     */
    record Request(String asker, long page) {
    }

    /**
     * Answers a fetch from a node's copies.
     *
     * @param copies   the copies
     * @param page     the page id, or {@link #ROOT}
     * @param position the asker's position among the data nodes, -1 if unknown (then no change number is named)
     * @param takingUp whether the answering node is taking its copies up itself
     * @param version  the metadata version the answering node applied
     * @return the answer
     */
    static Answer answer(NodeCopies copies, long page, int position, boolean takingUp, long version) {
        long id = page == ROOT ? copies.rootId() : page;
        return new Answer(id < 0 ? null : copies.page(id), position < 0 ? 0 : highest(copies.pages().values(),
                position), takingUp, version);
    }

    /**
     * The highest change number of one position that created a page these copies hold or refer to (a level-1
     * entry names a range, not a page).
     *
     * @param pages    the copies
     * @param position the position
     * @return the change number, 0 if none
     */
    static long highest(Collection<Page> pages, int position) {
        long max = 0;
        for (Page p : pages) {
            max = Math.max(max, ofPosition(p.id(), position));
            for (int i = 0; p.level() > 1 && i < p.entries().size(); i++) {
                max = Math.max(max, ofPosition(p.entries().get(i).child(), position));
            }
        }
        return max;
    }

    private static long ofPosition(long pageId, int position) {
        long change = pageId >>> 20;
        return (change & 0xff) == position ? change : 0;
    }

    /**
     * Encodes a request.
     *
     * @param asker the node that asks
     * @param page  the page id, or {@link #ROOT}
     * @return the body
     */
    static byte[] encodeRequest(String asker, long page) {
        byte[] id = asker.getBytes(StandardCharsets.UTF_8);
        if (id.length == 0 || id.length > MAX_ID) {
            throw new IllegalArgumentException("a node id has 1 to " + MAX_ID + " bytes: '" + asker + "'");
        }
        return ByteBuffer.allocate(2 + id.length + Long.BYTES).put((byte) PageFormat.CURRENT).put((byte) id.length)
                .put(id).putLong(page).array();
    }

    /**
     * Decodes a request.
     *
     * @param body the body
     * @return the request
     * @throws ProtocolException UNSUPPORTED_VERSION if it is of another {@link PageFormat}; MALFORMED saying what
     *                           was found for a cut, padded or empty-named body
     */
    static Request decodeRequest(byte[] body) {
        ByteBuffer b = ByteBuffer.wrap(body);
        try {
            PageFormat.check(b, "a page fetch");
            int len = b.get() & 0xff;
            if (len == 0) {
                throw malformed("it names no asker");
            }
            byte[] id = new byte[len];
            b.get(id);
            long page = b.getLong();
            if (b.hasRemaining()) {
                throw malformed(b.remaining() + " bytes after the page id");
            }
            return new Request(new String(id, StandardCharsets.UTF_8), page);
        } catch (BufferUnderflowException e) {
            throw malformed("the body ends early (" + body.length + " bytes)");
        }
    }

    /**
     * Encodes an answer.
     *
     * @param a the answer
     * @return the body
     */
    static byte[] encodeAnswer(Answer a) {
        byte[] page = a.page() == null ? new byte[0]
                : PageBatchCodec.encode(new PageBatch(0, List.of(a.page()), List.of(), -1));
        int marker = a.page() != null ? HELD : a.takingUp() ? TAKING_UP : NONE;
        List<byte[]> records = new ArrayList<>();
        a.records().forEach((change, batches) -> {
            records.add(ByteBuffer.allocate(Long.BYTES).putLong(change).array());
            records.add(ChangeRecordCodec.encode(change, batches));
        });
        ByteBuffer b = ByteBuffer.allocate(1 + 2 * Long.BYTES + 1 + (page.length > 0 ? 4 + page.length : 0) + 2
                + records.stream().mapToInt(r -> r.length).sum() + 2 + Long.BYTES * a.released().size());
        b.put((byte) PageFormat.CURRENT).putLong(a.highest()).putLong(a.version()).put((byte) marker);
        if (page.length > 0) {
            b.putInt(page.length).put(page);
        }
        b.putShort(PageMessageCodec.count(a.records().size()));
        records.forEach(b::put);
        b.putShort(PageMessageCodec.count(a.released().size()));
        a.released().forEach(b::putLong);
        return b.array();
    }

    /**
     * Decodes an answer.
     *
     * @param body the body
     * @return the answer
     * @throws ProtocolException UNSUPPORTED_VERSION if it is of another {@link PageFormat}; MALFORMED if the body
     *                           is cut short or padded, marked otherwise than 0 to 2, holds
     *                           other than one page after marker 1, or a malformed record
     */
    static Answer decodeAnswer(byte[] body) {
        ByteBuffer b = ByteBuffer.wrap(body);
        try {
            PageFormat.check(b, "a page fetch's answer");
            long highest = b.getLong();
            long version = b.getLong();
            int marker = b.get();
            if (marker != NONE && marker != HELD && marker != TAKING_UP) {
                throw malformed("an answer marked " + marker + " (0 none, 1 a page, 2 none while taking up)");
            }
            Page page = marker == HELD ? page(b) : null;
            Map<Long, Map<String, PageBatch>> records = new HashMap<>();
            for (int n = b.getShort() & 0xffff; n > 0; n--) {
                long change = b.getLong();
                if (records.put(change, ChangeRecordCodec.decode(b, change)) != null) {
                    throw malformed("change " + change + " recorded twice");
                }
            }
            List<Long> released = new ArrayList<>();
            for (int n = b.getShort() & 0xffff; n > 0; n--) {
                released.add(b.getLong());
            }
            if (b.hasRemaining()) {
                throw malformed(b.remaining() + " bytes after the answer");
            }
            return new Answer(page, highest, marker == TAKING_UP, version, records, released);
        } catch (BufferUnderflowException e) {
            throw malformed("an answer of " + body.length + " bytes ends early");
        }
    }

    private static Page page(ByteBuffer b) {
        List<Page> puts = PageBatchCodec.decodePrefixed(b, "a page", PageFetch::malformed).puts();
        if (puts.size() != 1) {
            throw malformed("an answer marked 1 with " + puts.size() + " pages after it");
        }
        return puts.get(0);
    }

    private static ProtocolException malformed(String what) {
        return new ProtocolException(Status.MALFORMED, "a page fetch is malformed: " + what);
    }
}
