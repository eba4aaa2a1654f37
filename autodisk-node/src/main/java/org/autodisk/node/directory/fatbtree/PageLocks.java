package org.autodisk.node.directory.fatbtree;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * One node's locks on its page copies, as MARK-OPT takes them: X on every copy of the page a change marks, IX on
 * the changing node's own copies above it. A group of locks is granted at once or queued whole; the queue is served
 * first come, first served.
 */
final class PageLocks {

    /**
     * One lock.
     *
     * @param page      the page id
     * @param exclusive X when true, IX when false
     */
    record Lock(long page, boolean exclusive) {
    }

    /**
     * Returns the locks a change's coordinator takes on its own copies: X on the change's mark and IX on every page
     * above it on the path to the change's key.
     *
     * @param copies the coordinator's copies
     * @param mark   the highest page the change rewrites
     * @param key    a key of the change's leaf
     * @return the locks, or {@code null} if a change meanwhile took the path away
     */
    static List<Lock> markAndAbove(NodeCopies copies, Page mark, byte[] key) {
        List<Lock> out = new ArrayList<>(List.of(new Lock(mark.id(), true)));
        List<Page> path;
        try {
            path = copies.pathTo(key);
        } catch (IllegalStateException gone) {
            return null;
        }
        path.stream().filter(p -> p.level() > mark.level()).forEach(p -> out.add(new Lock(p.id(), false)));
        return out;
    }

    private record Waiter(long change, List<Lock> locks, Runnable granted) {
    }

    private final Map<Long, String> requesters = new HashMap<>();
    private final Map<Long, Long> exclusive = new HashMap<>();
    private final Map<Long, Set<Long>> intent = new HashMap<>();
    private final Deque<Waiter> waiting = new ArrayDeque<>();

    /**
     * Takes a group of locks for a change, now if they are free and nobody waits, else when their turn comes.
     *
     * @param change    the change
     * @param requester the node carrying the change out
     * @param locks     the locks
     * @param granted   run once they are held
     */
    void acquire(long change, String requester, List<Lock> locks, Runnable granted) {
        requesters.put(change, requester);
        if (waiting.isEmpty() && free(change, locks)) {
            take(change, locks);
            granted.run();
        } else {
            waiting.add(new Waiter(change, locks, granted));
        }
    }

    /**
     * Releases every lock of a change, held or awaited, and grants the waiting groups that are free now, in order.
     *
     * @param change the change
     */
    void release(long change) {
        drop(change);
        grantWaiting();
    }

    private void drop(long change) {
        requesters.remove(change);
        waiting.removeIf(w -> w.change() == change);
        exclusive.values().removeIf(c -> c == change);
        intent.values().forEach(s -> s.remove(change));
        intent.values().removeIf(Set::isEmpty);
    }

    private void grantWaiting() {
        while (!waiting.isEmpty() && free(waiting.peek().change(), waiting.peek().locks())) {
            Waiter w = waiting.poll();
            take(w.change(), w.locks());
            w.granted().run();
        }
    }

    /**
     * Drops the waiting (not yet granted) requests of a node's changes, as when it is declared failed: they wrote
     * nothing, since a change writes only once it holds every lock; the locks it holds stay held.
     *
     * @param requester the node
     */
    void dropWaiting(String requester) {
        List<Long> gone = waiting.stream().map(Waiter::change)
                .filter(c -> requester.equals(requesters.get(c)) && !holds(c)).toList();
        gone.forEach(this::drop);
        grantWaiting();
    }

    private boolean holds(long change) {
        return exclusive.containsValue(change) || intent.values().stream().anyMatch(s -> s.contains(change));
    }

    /**
     * Finds a node among the given ones whose change holds a lock a waiting change waits for.
     *
     * @param change the waiting change
     * @param nodes  which requesters count
     * @return that node, or {@code null}
     */
    String blockedBy(long change, Predicate<String> nodes) {
        return waiting.stream().filter(w -> w.change() == change).flatMap(w -> w.locks().stream())
                .flatMap(l -> holders(l).stream()).filter(c -> c != change).map(requesters::get)
                .filter(n -> n != null && nodes.test(n)).findFirst().orElse(null);
    }

    /** The changes holding a page in a way that keeps a lock from being granted. */
    private List<Long> holders(Lock l) {
        List<Long> out = new ArrayList<>();
        Long x = exclusive.get(l.page());
        if (x != null) {
            out.add(x);
        }
        if (l.exclusive()) {
            out.addAll(intent.getOrDefault(l.page(), Set.of()));
        }
        return out;
    }

    /**
     * Releases every lock held or awaited for changes a node carries out (it restarted: they are gone with it).
     *
     * @param requester the node
     * @return the changes released
     */
    List<Long> releaseAll(String requester) {
        List<Long> gone = requesters.entrySet().stream().filter(e -> e.getValue().equals(requester))
                .map(Map.Entry::getKey).toList();
        gone.forEach(this::drop);
        grantWaiting();
        return gone;
    }

    /**
     * Tells whether nothing is held or waiting.
     *
     * @return true when idle
     */
    boolean idle() {
        return exclusive.isEmpty() && intent.isEmpty() && waiting.isEmpty();
    }

    private boolean free(long change, List<Lock> locks) {
        for (Lock l : locks) {
            Long x = exclusive.get(l.page());
            if (x != null && x != change) {
                return false;
            }
            Set<Long> ix = intent.getOrDefault(l.page(), Set.of());
            if (l.exclusive() && ix.stream().anyMatch(c -> c != change)) {
                return false;
            }
        }
        return true;
    }

    private void take(long change, List<Lock> locks) {
        for (Lock l : locks) {
            if (l.exclusive()) {
                exclusive.put(l.page(), change);
            } else {
                intent.computeIfAbsent(l.page(), k -> new HashSet<>()).add(change);
            }
        }
    }
}
