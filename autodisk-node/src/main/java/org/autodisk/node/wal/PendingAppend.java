package org.autodisk.node.wal;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One append waiting for the writer thread, already encoded into frames by the caller's thread.
 *
 * @param stream the stream
 * @param lsns   the records' LSNs, strictly increasing
 * @param frames the records' frames, in the same order
 * @param future completed once the frames are durable
 */
record PendingAppend(String stream, long[] lsns, List<byte[]> frames, CompletableFuture<Long> future) {
}
