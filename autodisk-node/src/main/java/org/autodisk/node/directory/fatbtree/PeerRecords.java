package org.autodisk.node.directory.fatbtree;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The records of the structure changes other nodes coordinated that this node applied a batch of: every node's batch
 * of the change, kept until the coordinator releases the change, or restarts without sending the change again (it
 * finished it: its release was lost, or it lost its own record). A coordinator that lost its page store
 * (and its own record) with a change half-written takes them back with its peers' roots and finishes the change
 * ({@link PageRebuild}). They are kept in the node's page store too (a record unsynced, made durable by the synced
 * write of the batch's pages that follows; its release synced), so a node that restarts keeps them.
 */
final class PeerRecords {

    /** How many released changes per coordinator are remembered. */
    static final int RELEASED = 64;

    private final PageStore store;
    private final Map<Long, PageStore.Kept> held = new HashMap<>();
    private final Map<String, Deque<Long>> released = new HashMap<>();

    /** Records kept nowhere but here (answers of a node that keeps none). */
    PeerRecords() {
        this(PageStore.NONE);
    }

    /**
     * Records kept in a page store too, and those it kept before taken up.
     *
     * @param store the store
     */
    PeerRecords(PageStore store) {
        this.store = store;
        PageStore.Records before = store.records();
        held.putAll(before.kept());
        before.released().forEach((c, changes) -> released.put(c, new ArrayDeque<>(changes)));
    }

    /**
     * Follows a message from another node: keeps the record a batch carries, forgets it on the change's release or
     * the coordinator's restart.
     *
     * @param from the sender
     * @param m    the message
     */
    void take(String from, PageMessage m) {
        switch (m) {
            case PageMessage.Batch b when !b.record().isEmpty() -> keep(b.batch().change(),
                    new PageStore.Kept(from, b.record()));
            case PageMessage.Release r -> released(from, r.change());
            case PageMessage.Restarted r -> {
                List<Long> gone = held.entrySet().stream().filter(e -> e.getValue().coordinator().equals(from)
                        && !r.resent().contains(e.getKey())).map(Map.Entry::getKey).toList();
                if (released.remove(from) != null || !gone.isEmpty()) {
                    gone.forEach(held::remove);
                    store.forget(from, gone);
                }
            }
            default -> {
            }
        }
    }

    /**
     * A change was released: written everywhere if this node kept its record (a release before any batch is sent
     * when a change starts over). The last {@link #RELEASED} such changes of each coordinator are remembered until it
     * restarts: a coordinator that lost its page store with its releases unsent must not take such a record of a peer
     * still waiting for its release as a change to finish (the pages it wrote may have moved on since).
     */
    private void released(String from, long change) {
        PageStore.Kept h = held.get(change);
        if (h != null && h.coordinator().equals(from)) {
            held.remove(change);
            Deque<Long> last = released.computeIfAbsent(from, k -> new ArrayDeque<>());
            last.add(change);
            if (last.size() > RELEASED) {
                last.poll();
            }
            store.released(from, change, List.copyOf(last));
        }
    }

    private void keep(long change, PageStore.Kept kept) {
        held.put(change, kept);
        store.keep(change, kept);
    }

    /**
     * Returns the changes of a coordinator this node kept the record of and was released from, the last
     * {@link #RELEASED} since the coordinator last restarted.
     *
     * @param coordinator the coordinator
     * @return the change numbers
     */
    List<Long> releasedOf(String coordinator) {
        return List.copyOf(released.getOrDefault(coordinator, new ArrayDeque<>()));
    }

    /**
     * Returns the records of one coordinator's changes.
     *
     * @param coordinator the coordinator
     * @return every node's batch, by change
     */
    Map<Long, Map<String, PageBatch>> of(String coordinator) {
        Map<Long, Map<String, PageBatch>> out = new LinkedHashMap<>();
        held.forEach((change, h) -> {
            if (h.coordinator().equals(coordinator)) {
                out.put(change, h.batches());
            }
        });
        return out;
    }

    /**
     * Tells whether no record is kept.
     *
     * @return true if none is
     */
    boolean isEmpty() {
        return held.isEmpty();
    }
}
