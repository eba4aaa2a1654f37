package org.autodisk.node.directory.fatbtree;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One item at a time, in order; items that finish as they start run in a loop, however many. */
class OneAtATimeTest {

    @Test
    void theNextStartsOnlyOnceTheHeadFinished() {
        List<String> started = new ArrayList<>();
        OneAtATime<String> q = new OneAtATime<>(started::add);
        q.add("a");
        q.add("b");
        assertThat(started).containsExactly("a");
        q.addBehind("c");
        q.finished();
        assertThat(started).containsExactly("a", "b");
        assertThat(q.head()).isEqualTo("b");
        q.finished();
        q.finished();
        assertThat(started).containsExactly("a", "b", "c");
        assertThat(q.isEmpty()).isTrue();
    }

    @Test
    void itemsThatFinishAsTheyStartDoNotRecurse() {
        int[] count = {0};
        OneAtATime<Integer>[] q = new OneAtATime[1];
        q[0] = new OneAtATime<>(i -> {
            count[0]++;
            if (i != 0) {
                q[0].finished();
            }
        });
        for (int i = 0; i < 200_000; i++) {
            q[0].add(i); // all wait behind 0
        }
        assertThat(count[0]).isEqualTo(1);
        q[0].finished();
        assertThat(count[0]).isEqualTo(200_000);
        assertThat(q[0].isEmpty()).isTrue();
    }
}
