package org.autodisk.node.ledger;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The segment files of a log node's journal, numbered from 0 in the order written. Only the newest is written, by
 * the journal's writer thread, ahead of which it is filled with zeros so that an fsync need not change its size.
 * Any thread reads a frame at an offset.
 */
final class JournalSegments implements AutoCloseable {

    private static final String SUFFIX = ".journal";
    private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(64 * 1024);

    private final Path dir;
    private final SegmentOptions options;
    private final Map<Long, FileChannel> readers = new ConcurrentHashMap<>();
    private FileChannel current;
    private long number = -1;
    private long position;
    private long allocated;
    /** Where the current segment's last successful fsync left it (writer thread). */
    private long synced;
    private volatile boolean closed;

    JournalSegments(Path dir, SegmentOptions options) throws IOException {
        this.dir = Files.createDirectories(dir);
        this.options = options;
    }

    /**
     * Lists the segments on disk, oldest first.
     *
     * @return their numbers
     * @throws IOException if the directory cannot be read
     */
    List<Long> existing() throws IOException {
        List<Long> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            files.map(p -> p.getFileName().toString()).filter(n -> n.matches("\\d{20}\\" + SUFFIX))
                    .forEach(n -> out.add(Long.parseLong(n.substring(0, 20))));
        }
        out.sort(null);
        return out;
    }

    Path file(long segment) {
        return dir.resolve(String.format("%020d%s", segment, SUFFIX));
    }

    /**
     * Reads a whole segment (replay at start-up).
     *
     * @param segment its number
     * @return its bytes
     * @throws IOException if it cannot be read
     */
    ByteBuffer map(long segment) throws IOException {
        try (FileChannel ch = FileChannel.open(file(segment), StandardOpenOption.READ)) {
            return ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size());
        }
    }

    /**
     * Cuts a segment at an offset (a torn write found at replay: nothing from there on was acknowledged).
     *
     * @param segment its number
     * @param length  the bytes kept
     * @throws IOException if it cannot be cut
     */
    void cut(long segment, long length) throws IOException {
        try (FileChannel ch = FileChannel.open(file(segment), StandardOpenOption.WRITE)) {
            ch.truncate(length);
            ch.force(true);
        }
    }

    /**
     * Starts the next segment, after the given one (writer thread).
     *
     * @param after the newest segment so far (-1: none)
     * @throws IOException if it cannot be created
     */
    void roll(long after) throws IOException {
        // the previous segment's channel stays open for reads (in readers) until it is deleted
        number = after + 1;
        current = FileChannel.open(file(number), StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        readers.put(number, current);
        position = 0;
        allocated = 0;
        synced = 0;
        FileChannel dirChannel = FileChannel.open(dir, StandardOpenOption.READ);
        try (dirChannel) {
            dirChannel.force(true);
        }
    }

    long current() {
        return number;
    }

    /** Whether a segment is open for writing (after the first {@link #roll}). */
    boolean open() {
        return current != null;
    }

    /**
     * Makes the next {@link #roll} start after the newest segment found on disk.
     *
     * @param newest its number (-1: none)
     */
    void after(long newest) {
        number = newest;
    }

    long position() {
        return position;
    }

    /** Whether a write of this many bytes should go to a new segment (this one has frames and would pass its size). */
    boolean full(int bytes) {
        return position > 0 && position + bytes > options.segmentBytes();
    }

    /**
     * Writes bytes at the end of the current segment (writer thread); durable only after {@link #force()}.
     *
     * @param b the frames
     * @throws IOException on a write error
     */
    void write(ByteBuffer b) throws IOException {
        options.faultHook().beforeWrite("journal");
        preallocate(b.remaining());
        while (b.hasRemaining()) {
            position += current.write(b, position);
        }
    }

    private void preallocate(int bytes) throws IOException {
        if (options.preallocateBytes() == 0) {
            return;
        }
        while (position + bytes > allocated) {
            long end = allocated + options.preallocateBytes();
            while (allocated < end) {
                ByteBuffer z = ZEROS.duplicate();
                z.limit((int) Math.min(z.capacity(), end - allocated));
                allocated += current.write(z, allocated);
            }
        }
    }

    /**
     * Makes everything written durable (writer thread).
     *
     * @throws IOException on a sync error
     */
    void force() throws IOException {
        options.faultHook().beforeSync(file(number));
        current.force(false);
        synced = position;
    }

    /**
     * Cuts the current segment back to where its last successful fsync left it, as soon as the writer stops after a
     * disk error (and again when the journal opens again): the frames after it were never answered as durable, and
     * the page cache may still show them. A segment no fsync ever succeeded on is deleted (it holds nothing durable,
     * not even its opening state).
     *
     * @throws IOException if it cannot be cut
     */
    void cutUnsynced() throws IOException {
        if (current == null || position == synced) {
            return;
        }
        if (synced > 0) {
            cut(number, synced);
        } else {
            Files.deleteIfExists(file(number));
            try (FileChannel dirChannel = FileChannel.open(dir, StandardOpenOption.READ)) {
                dirChannel.force(true);
            }
        }
        position = synced;
    }

    /**
     * Reads the frame at an offset of a segment.
     *
     * @param segment its number
     * @param offset  where the frame starts
     * @return the frame
     * @throws IOException if it cannot be read (for example, the segment was deleted meanwhile)
     */
    JournalFrame readAt(long segment, long offset) throws IOException {
        FileChannel ch = readers.get(segment);
        if (ch == null) {
            ch = readers.computeIfAbsent(segment, this::openForRead);
            if (closed) { // opened as the journal was closed: it would stay open for good
                readers.remove(segment, ch);
                ch.close();
                throw new java.nio.channels.ClosedChannelException();
            }
        }
        ByteBuffer b = ByteBuffer.allocate(4096);
        readFully(ch, b, offset, 4);
        int length = b.getInt(0);
        if (length > b.capacity()) {
            b = ByteBuffer.allocate(length);
        }
        readFully(ch, b, offset, length);
        b.flip();
        return JournalFrame.read(b);
    }

    private static void readFully(FileChannel ch, ByteBuffer b, long offset, int atLeast) throws IOException {
        while (b.position() < atLeast && b.hasRemaining()) {
            if (ch.read(b, offset + b.position()) < 0) {
                throw new java.io.EOFException("a journal frame ends past its segment");
            }
        }
    }

    private FileChannel openForRead(long segment) {
        try {
            return FileChannel.open(file(segment), StandardOpenOption.READ);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * Deletes a segment no ledger needs any more.
     *
     * @param segment its number
     * @throws IOException if it cannot be deleted
     */
    void delete(long segment) throws IOException {
        FileChannel ch = readers.remove(segment);
        if (ch != null) {
            ch.close();
        }
        Files.deleteIfExists(file(segment));
    }

    @Override
    public void close() {
        closed = true;
        readers.values().forEach(ch -> {
            try {
                ch.close();
            } catch (IOException e) {
                // closing a read channel: nothing to lose
            }
        });
        readers.clear();
    }
}
