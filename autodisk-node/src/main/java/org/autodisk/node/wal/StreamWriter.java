package org.autodisk.node.wal;

/** The writer thread's view of one stream: the segment it appends to and the last LSN it accepted. */
final class StreamWriter {

    private final StreamLog log;
    private Segment active;
    private long lastLsn;

    StreamWriter(StreamLog log) {
        this.log = log;
        reset();
    }

    StreamLog log() {
        return log;
    }

    /** The segment being appended to: the last published one, or one created in the current batch. */
    Segment active() {
        return active;
    }

    void roll(Segment segment) {
        active = segment;
    }

    long lastLsn() {
        return lastLsn;
    }

    void accepted(long lsn) {
        lastLsn = lsn;
    }

    /** Forgets what a failed batch did: back to the published, durable state. */
    void reset() {
        active = log.lastSegment();
        lastLsn = log.lastLsn();
    }
}
