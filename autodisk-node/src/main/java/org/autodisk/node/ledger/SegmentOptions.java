package org.autodisk.node.ledger;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Options of the journal's segment files.
 *
 * @param segmentBytes a segment file is rolled when the next record would take it past this size (a record
 *                     larger than this gets a segment of its own); 1 KiB .. 1 GiB
 * @param preallocateBytes a segment is extended with zeros this many bytes at a time ahead of its records
 *                     (0: not at all), so most fsyncs write no file system metadata
 * @param faultHook    called before every write and fsync; tests use it to inject I/O errors or to hold an
 *                     fsync
 */
public record SegmentOptions(long segmentBytes, long preallocateBytes, FaultHook faultHook) {

    /** Default segment size: 64 MiB. */
    public static final long DEFAULT_SEGMENT_BYTES = 64L << 20;

    /** Smallest segment size accepted. */
    public static final long MIN_SEGMENT_BYTES = 1L << 10;

    /** Largest segment size accepted. */
    public static final long MAX_SEGMENT_BYTES = 1L << 30;

    /** Default preallocation step: 1 MiB of zeros ahead of the records. */
    public static final long DEFAULT_PREALLOCATE_BYTES = 1L << 20;

    /** Checks the values. */
    public SegmentOptions {
        if (segmentBytes < MIN_SEGMENT_BYTES || segmentBytes > MAX_SEGMENT_BYTES) {
            throw new IllegalArgumentException("segmentBytes " + segmentBytes + " is outside "
                    + MIN_SEGMENT_BYTES + ".." + MAX_SEGMENT_BYTES);
        }
        if (preallocateBytes < 0 || preallocateBytes > MAX_SEGMENT_BYTES) {
            throw new IllegalArgumentException("preallocateBytes " + preallocateBytes + " is outside 0.."
                    + MAX_SEGMENT_BYTES);
        }
        Objects.requireNonNull(faultHook, "faultHook");
    }

    /**
     * Returns the defaults: 64 MiB segments preallocated 1 MiB at a time, no fault hook.
     *
     * @return the options
     */
    public static SegmentOptions defaults() {
        return new SegmentOptions(DEFAULT_SEGMENT_BYTES, DEFAULT_PREALLOCATE_BYTES, FaultHook.NONE);
    }

    /**
     * Returns a copy with another segment size.
     *
     * @param bytes the segment size
     * @return the options
     */
    public SegmentOptions withSegmentBytes(long bytes) {
        return new SegmentOptions(bytes, preallocateBytes, faultHook);
    }

    /**
     * Returns a copy with another preallocation step. A segment is extended with zeros this many bytes at a
     * time ahead of its records, so that the fsync of an append finds the file's size and blocks unchanged and
     * writes no file system metadata; recovery treats a zero tail as the clean end of the segment.
     *
     * @param bytes the step; 0 turns preallocation off
     * @return the options
     */
    public SegmentOptions withPreallocateBytes(long bytes) {
        return new SegmentOptions(segmentBytes, bytes, faultHook);
    }

    /**
     * Returns a copy with another fault hook.
     *
     * @param hook the hook
     * @return the options
     */
    public SegmentOptions withFaultHook(FaultHook hook) {
        return new SegmentOptions(segmentBytes, preallocateBytes, hook);
    }

    /**
     * Test hook called by the writer thread; an {@link IOException} thrown here fails the batch exactly like a
     * real write or fsync error. Both methods do nothing by default.
     */
    public interface FaultHook {

        /** The hook that does nothing. */
        FaultHook NONE = new FaultHook() { };

        /**
         * Called before a batch's bytes for a stream are written.
         *
         * @param stream the stream
         * @throws IOException to simulate a write failure
         */
        default void beforeWrite(String stream) throws IOException {
        }

        /**
         * Called before a segment file is fsynced.
         *
         * @param file the segment file
         * @throws IOException to simulate an fsync failure
         */
        default void beforeSync(Path file) throws IOException {
        }
    }
}
