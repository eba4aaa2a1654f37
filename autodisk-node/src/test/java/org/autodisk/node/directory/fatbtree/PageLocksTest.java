package org.autodisk.node.directory.fatbtree;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Page locks under messages that come twice or from a node that restarted: a release also drops the change's
 * waiting request (a request sent again must not take the lock after the release), and a restarted node's changes
 * lose every lock they held or awaited, so the next waiter gets its turn.
 */
class PageLocksTest {

    private static final List<PageLocks.Lock> X = List.of(new PageLocks.Lock(7, true));

    @Test
    void aReleaseDropsTheChangesWaitingRequestToo() {
        PageLocks locks = new PageLocks();
        List<String> granted = new ArrayList<>();
        locks.acquire(1, "d1", X, () -> granted.add("c1"));
        locks.acquire(2, "d2", X, () -> granted.add("c2"));
        locks.acquire(1, "d1", X, () -> granted.add("c1 again"));
        locks.release(1);
        assertThat(granted).containsExactly("c1", "c2");
        locks.release(2);
        assertThat(locks.idle()).isTrue();
    }

    @Test
    void aRestartedNodesChangesLoseTheirLocksAndTheNextWaiterGetsItsTurn() {
        PageLocks locks = new PageLocks();
        List<String> granted = new ArrayList<>();
        locks.acquire(1, "d1", X, () -> granted.add("c1"));
        locks.acquire(3, "d1", X, () -> granted.add("c3"));
        locks.acquire(2, "d2", X, () -> granted.add("c2"));
        assertThat(locks.releaseAll("d1")).containsExactlyInAnyOrder(1L, 3L);
        assertThat(granted).containsExactly("c1", "c2");
        locks.release(2);
        assertThat(locks.idle()).isTrue();
    }
}
