package org.autodisk.node.wal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.autodisk.node.wire.LogRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Recovery on open: scans every stream's segments in LSN order and verifies every frame. The first torn or
 * corrupt frame (or an LSN out of order) ends the stream's valid data: that file is cut there and the
 * stream's later segment files are deleted, each logged at WARN. Empty segment files are deleted. A tail of
 * zeros is preallocated space, the segment's clean end: it is trimmed without a warning.
 */
final class Recovery {

    private static final Logger LOG = LoggerFactory.getLogger(Recovery.class);

    private final String id;

    private Recovery(String id) {
        this.id = id;
    }

    /**
     * Recovers every stream under a store directory.
     *
     * @return the streams that hold records, by name
     */
    static Map<String, StreamLog> recover(String id, Path dir) throws IOException {
        Recovery recovery = new Recovery(id);
        Map<String, StreamLog> streams = new HashMap<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, Files::isDirectory)) {
            for (Path streamDir : entries) {
                StreamLog log = recovery.recoverStream(streamDir);
                if (!log.segments().isEmpty()) {
                    streams.put(log.name(), log);
                }
            }
        }
        return streams;
    }

    private StreamLog recoverStream(Path streamDir) throws IOException {
        String name = streamDir.getFileName().toString();
        List<Path> files = segmentFiles(streamDir);
        List<Segment> segments = new ArrayList<>();
        long lastLsn = 0;
        for (int i = 0; i < files.size(); i++) {
            Segment seg = new Segment(files.get(i), Segment.parseName(files.get(i)));
            Scan scan = scan(seg, lastLsn);
            if (scan.problem() == null && scan.fileSize() > scan.validEnd()) {
                trimZeros(name, seg, scan);
            }
            if (scan.problem() != null) {
                cut(name, seg, scan);
                deleteLater(name, files.subList(i + 1, files.size()));
            }
            if (seg.size() > 0) {
                segments.add(seg);
                lastLsn = seg.lastLsn();
            } else {
                LOG.info("{}: stream {}: deleting empty segment {}", id, name, seg.file());
                Files.delete(seg.file());
            }
            if (scan.problem() != null) {
                syncDir(streamDir);
                break;
            }
        }
        return new StreamLog(id, name, streamDir, segments);
    }

    private static List<Path> segmentFiles(Path streamDir) throws IOException {
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(streamDir)) {
            for (Path f : entries) {
                if (Segment.parseName(f) >= 0 && Files.isRegularFile(f)) {
                    files.add(f);
                }
            }
        }
        files.sort(Comparator.comparingLong(Segment::parseName));
        return files;
    }

    /** Verifies a segment's frames and publishes its valid part (size, last LSN, sparse index). */
    private static Scan scan(Segment seg, long previousLsn) throws IOException {
        try (FileChannel ch = FileChannel.open(seg.file(), StandardOpenOption.READ)) {
            long fileSize = ch.size();
            FrameScanner scanner = new FrameScanner(ch, 0, fileSize);
            Map<Long, Long> index = new HashMap<>();
            long lastLsn = previousLsn;
            long lastIndexed = -Segment.INDEX_INTERVAL;
            String problem = null;
            try {
                LogRecord r;
                while (problem == null && (r = scanner.next()) != null) {
                    problem = lsnProblem(seg, scanner.frameStart(), r.lsn(), lastLsn);
                    if (problem == null && scanner.frameStart() - lastIndexed >= Segment.INDEX_INTERVAL) {
                        lastIndexed = scanner.frameStart();
                        index.put(r.lsn(), lastIndexed);
                    }
                    lastLsn = problem == null ? r.lsn() : lastLsn;
                }
            } catch (FrameScanner.Corrupt e) {
                problem = e.getMessage();
            }
            long validEnd = problem == null ? scanner.position() : scanner.frameStart();
            if (problem != null && zerosFrom(ch, validEnd, fileSize)) {
                problem = null;
            }
            seg.publish(validEnd, lastLsn, index);
            return new Scan(fileSize, validEnd, problem);
        }
    }

    /** Whether every byte from {@code from} to the end is zero: preallocated space, the segment's clean end. */
    private static boolean zerosFrom(FileChannel ch, long from, long fileSize) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(64 * 1024);
        for (long pos = from; pos < fileSize; ) {
            buf.clear().limit((int) Math.min(buf.capacity(), fileSize - pos));
            int n = ch.read(buf, pos);
            if (n <= 0) {
                return false;
            }
            for (int i = 0; i < n; i++) {
                if (buf.get(i) != 0) {
                    return false;
                }
            }
            pos += n;
        }
        return true;
    }

    private void trimZeros(String stream, Segment seg, Scan scan) throws IOException {
        try (FileChannel ch = FileChannel.open(seg.file(), StandardOpenOption.WRITE)) {
            ch.truncate(scan.validEnd());
        }
        LOG.debug("{}: stream {}: {} ends at offset {}; {} preallocated bytes trimmed", id, stream, seg.file(),
                scan.validEnd(), scan.fileSize() - scan.validEnd());
    }

    private static String lsnProblem(Segment seg, long offset, long lsn, long previousLsn) {
        if (offset == 0 && lsn != seg.firstLsn()) {
            return "first record has LSN " + lsn + " but the file is named for LSN " + seg.firstLsn();
        }
        if (lsn <= previousLsn) {
            return "LSN " + lsn + " does not follow LSN " + previousLsn;
        }
        return null;
    }

    private void cut(String stream, Segment seg, Scan scan) throws IOException {
        try (FileChannel ch = FileChannel.open(seg.file(), StandardOpenOption.WRITE)) {
            ch.truncate(scan.validEnd());
            ch.force(true);
        }
        LOG.warn("{}: stream {}: cut {} at offset {}, {} bytes dropped: {}", id, stream, seg.file(),
                scan.validEnd(), scan.fileSize() - scan.validEnd(), scan.problem());
    }

    private void deleteLater(String stream, List<Path> later) throws IOException {
        for (Path f : later) {
            long size = Files.size(f);
            Files.delete(f);
            LOG.warn("{}: stream {}: deleted {} ({} bytes), it follows the cut", id, stream, f, size);
        }
    }

    static void syncDir(Path dir) throws IOException {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        }
    }

    /** What a segment scan found: the file size, where valid data ends, and why it ends there if early. */
    private record Scan(long fileSize, long validEnd, String problem) {
    }
}
