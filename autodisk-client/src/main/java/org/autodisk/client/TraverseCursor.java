package org.autodisk.client;

import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Spliterator;
import java.util.function.Consumer;

/**
 * A lazy traverse: fetches the next page of {@value #PAGE_SIZE} streams only when the previous one is used up.
 * Each page after the first starts at the last key seen (inclusive) and drops that key, so no key is skipped
 * even if the node ends a page early.
 */
final class TraverseCursor implements Spliterator<StreamEntry> {

    /** Streams per page. */
    static final int PAGE_SIZE = 1000;

    /** Fetches one page, blocking. */
    @FunctionalInterface
    interface PageSource {
        /**
         * Fetches streams from a key on.
         *
         * @param from  first key (inclusive)
         * @param limit at most this many
         * @return the streams in key order; fewer than {@code limit} means the range is exhausted
         */
        List<StreamEntry> fetch(byte[] from, int limit);
    }

    private final PageSource source;
    private final byte[] from;
    private byte[] lastKey;
    private Iterator<StreamEntry> page = Collections.emptyIterator();
    private boolean exhausted;

    TraverseCursor(PageSource source, byte[] from) {
        this.source = source;
        this.from = from;
    }

    @Override
    public boolean tryAdvance(Consumer<? super StreamEntry> action) {
        while (!page.hasNext()) {
            if (exhausted) {
                return false;
            }
            fetchNext();
        }
        action.accept(page.next());
        return true;
    }

    private void fetchNext() {
        boolean first = lastKey == null;
        int want = first ? PAGE_SIZE : PAGE_SIZE + 1;
        List<StreamEntry> got = source.fetch(first ? from : lastKey, want);
        exhausted = got.size() < want;
        List<StreamEntry> fresh = got;
        if (!first && !got.isEmpty() && Arrays.equals(got.get(0).key(), lastKey)) {
            fresh = got.subList(1, got.size());
        }
        if (!got.isEmpty()) {
            lastKey = got.get(got.size() - 1).key();
        }
        page = fresh.iterator();
    }

    @Override
    public Spliterator<StreamEntry> trySplit() {
        return null;
    }

    @Override
    public long estimateSize() {
        return Long.MAX_VALUE;
    }

    @Override
    public int characteristics() {
        return ORDERED | NONNULL;
    }
}
