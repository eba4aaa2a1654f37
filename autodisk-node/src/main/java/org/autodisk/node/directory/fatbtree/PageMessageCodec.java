package org.autodisk.node.directory.fatbtree;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.autodisk.core.protocol.ProtocolException;
import org.autodisk.core.protocol.Status;

/**
 * The wire form of a PAGE_MESSAGE body: the u8 {@link PageFormat}, the sender's node id (one length byte, then UTF-8),
 * the message's kind (one byte), then its fields: a change number, a page id for a lock request, for a batch i32 length
 * and the batch ({@link PageBatchCodec}), then the change's record ({@link ChangeRecordCodec}); for a restart u16 count
 * and the i64 changes it sent again. Decoding checks the kind, every length and that nothing follows; it answers
 * MALFORMED saying what it found.
 */
final class PageMessageCodec {

    private static final int LOCK_REQUEST = 1;
    private static final int LOCK_GRANTED = 2;
    private static final int RELEASE = 3;
    private static final int BATCH = 4;
    private static final int APPLIED = 5;
    private static final int RESTARTED = 6;
    private static final int MAX_ID = 255;

    private PageMessageCodec() {
    }

    /** A decoded message and the node that sent it. */
    record From(String sender, PageMessage message) {
    }

    /**
     * Encodes a message.
     *
     * @param sender the node sending it
     * @param m      the message
     * @return its bytes
     */
    static byte[] encode(String sender, PageMessage m) {
        byte[] id = sender.getBytes(StandardCharsets.UTF_8);
        if (id.length == 0 || id.length > MAX_ID) {
            throw new IllegalArgumentException("a node id has 1 to " + MAX_ID + " bytes: '" + sender + "'");
        }
        byte[] fields = fields(m);
        ByteBuffer b = ByteBuffer.allocate(3 + id.length + fields.length);
        b.put((byte) PageFormat.CURRENT).put((byte) id.length).put(id).put((byte) kind(m)).put(fields);
        return b.array();
    }

    private static int kind(PageMessage m) {
        return switch (m) {
            case PageMessage.LockRequest l -> LOCK_REQUEST;
            case PageMessage.LockGranted g -> LOCK_GRANTED;
            case PageMessage.Release r -> RELEASE;
            case PageMessage.Batch b -> BATCH;
            case PageMessage.Applied a -> APPLIED;
            case PageMessage.Restarted r -> RESTARTED;
        };
    }

    private static byte[] fields(PageMessage m) {
        return switch (m) {
            case PageMessage.LockRequest l -> ByteBuffer.allocate(16).putLong(l.change()).putLong(l.page()).array();
            case PageMessage.LockGranted g -> change(g.change());
            case PageMessage.Release r -> change(r.change());
            case PageMessage.Batch b -> batch(b);
            case PageMessage.Applied a -> change(a.change());
            case PageMessage.Restarted r -> restarted(r);
        };
    }

    private static byte[] batch(PageMessage.Batch m) {
        byte[] batch = PageBatchCodec.encode(m.batch());
        byte[] record = ChangeRecordCodec.encode(m.batch().change(), m.record());
        return ByteBuffer.allocate(4 + batch.length + record.length).putInt(batch.length).put(batch).put(record)
                .array();
    }

    private static PageMessage.Batch batch(ByteBuffer b) {
        PageBatch batch = PageBatchCodec.decodePrefixed(b, "a batch", PageMessageCodec::malformed);
        return new PageMessage.Batch(batch, ChangeRecordCodec.decode(b, batch.change()));
    }

    private static byte[] restarted(PageMessage.Restarted r) {
        ByteBuffer b = ByteBuffer.allocate(2 + 8 * r.resent().size()).putShort(count(r.resent().size()));
        r.resent().forEach(b::putLong);
        return b.array();
    }

    private static PageMessage.Restarted restarted(ByteBuffer b) {
        List<Long> resent = new ArrayList<>();
        for (int n = b.getShort() & 0xffff; n > 0; n--) {
            resent.add(b.getLong());
        }
        return new PageMessage.Restarted(resent);
    }

    /** A count as two bytes; a larger one is refused rather than cut. */
    static short count(int n) {
        if (n > 0xffff) {
            throw new IllegalArgumentException(n + " items where at most 65535 fit");
        }
        return (short) n;
    }

    private static byte[] change(long change) {
        return ByteBuffer.allocate(8).putLong(change).array();
    }

    /**
     * Decodes a body.
     *
     * @param body the bytes
     * @return the message and its sender
     * @throws ProtocolException UNSUPPORTED_VERSION if it is of another {@link PageFormat}; MALFORMED if the body is
     *                           cut short, names no sender or an unknown kind, or has bytes
     *                           after the message
     */
    static From decode(byte[] body) {
        ByteBuffer b = ByteBuffer.wrap(body);
        try {
            PageFormat.check(b, "a directory page message");
            int len = b.get() & 0xff;
            if (len == 0) {
                throw malformed("it names no sender");
            }
            byte[] id = new byte[len];
            b.get(id);
            String sender = new String(id, StandardCharsets.UTF_8);
            int kind = b.get() & 0xff;
            PageMessage m = switch (kind) {
                case LOCK_REQUEST -> new PageMessage.LockRequest(b.getLong(), b.getLong());
                case LOCK_GRANTED -> new PageMessage.LockGranted(b.getLong());
                case RELEASE -> new PageMessage.Release(b.getLong());
                case APPLIED -> new PageMessage.Applied(b.getLong());
                case RESTARTED -> restarted(b);
                case BATCH -> batch(b);
                default -> throw malformed("unknown kind " + kind + " (1 to 6: lock request, lock granted, release, "
                        + "batch, applied, restarted)");
            };
            if (b.hasRemaining()) {
                throw malformed(b.remaining() + " bytes after the message");
            }
            return new From(sender, m);
        } catch (BufferUnderflowException e) {
            throw malformed("the body ends early (" + body.length + " bytes)");
        }
    }

    private static ProtocolException malformed(String what) {
        return new ProtocolException(Status.MALFORMED, "a directory page message is malformed: " + what);
    }
}
