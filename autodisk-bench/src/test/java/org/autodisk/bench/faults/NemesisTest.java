package org.autodisk.bench.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The nemesis on a target that only records what it is asked to do: every kind once per round, each fault healed on
 * its victim before the next, victims of the right role, the same schedule from the same seed; a kind the target
 * cannot inject is refused before anything starts.
 */
class NemesisTest {

    /** Three data nodes, two log nodes; nothing listens at its seed, so the leader is a seeded guess. */
    private static final class Recording implements FaultTarget {
        final List<String> calls = new ArrayList<>();
        boolean pauses = true;

        @Override
        public List<String> ids() {
            return List.of("d1", "d2", "d3", "l1", "l2");
        }

        @Override
        public int dataNodes() {
            return 3;
        }

        @Override
        public List<String> seeds() {
            return List.of("127.0.0.1:1");
        }

        @Override
        public boolean supports(FaultKind kind) {
            return kind != FaultKind.PAUSE_DATA || pauses;
        }

        private void call(String what, int node) {
            calls.add(what + " " + ids().get(node));
        }

        @Override
        public void kill(int node) {
            call("kill", node);
        }

        @Override
        public void restart(int node) {
            call("restart", node);
        }

        @Override
        public void pause(int node) {
            call("pause", node);
        }

        @Override
        public void resume(int node) {
            call("resume", node);
        }

        @Override
        public void isolate(int node) {
            call("isolate", node);
        }

        @Override
        public void reconnect(int node) {
            call("reconnect", node);
        }

        @Override
        public void fill(int node) {
            call("fill", node);
        }

        @Override
        public void free(int node) {
            call("free", node);
        }

        @Override
        public void cut(int from, int to) {
            calls.add("cut " + ids().get(from) + ">" + ids().get(to));
        }

        @Override
        public void restore(int from, int to) {
            calls.add("restore " + ids().get(from) + ">" + ids().get(to));
        }

        @Override
        public void hook(int node, String file, String content) {
            call("hook-" + file, node);
        }

        @Override
        public void unhook(int node, String file) {
            call("unhook-" + file, node);
        }
    }

    private static List<String> run(Recording target, long seed, List<FaultKind> kinds) throws Exception {
        History history = new History();
        Nemesis nemesis = new Nemesis(target, seed, kinds, Duration.ofMillis(1), Duration.ofMillis(1), history,
                System::nanoTime);
        nemesis.run(System.nanoTime());
        assertThat(history.faults()).extracting(FaultWindow::kind).containsExactlyInAnyOrderElementsOf(kinds);
        List<String> expected = new ArrayList<>();
        for (FaultWindow f : history.faults()) {
            if (!f.kind().ofLink()) {
                assertThat(f.victim()).as("the victim of %s", f.kind()).startsWith(f.kind().ofLogNode() ? "l" : "d");
            }
            expected.addAll(f.kind().ofLink() ? cutAndRestored(f.victim())
                    : injectedAndHealed(f.kind()).stream().map(c -> c + " " + f.victim()).toList());
        }
        assertThat(target.calls).as("each fault injected and healed on its victim before the next")
                .isEqualTo(expected);
        return target.calls;
    }

    /** What the nemesis asks of the target to cut a link {@code a/b} (both ways) or {@code a>b} and to restore it. */
    private static List<String> cutAndRestored(String link) {
        String[] ends = link.split("[/>]");
        assertThat(ends).as(link).hasSize(2).doesNotHaveDuplicates();
        assertThat(ends).as("one end is a data node").anyMatch(e -> e.startsWith("d"));
        List<String> ways = link.contains("/") ? List.of(ends[0] + ">" + ends[1], ends[1] + ">" + ends[0])
                : List.of(link);
        List<String> out = new ArrayList<>(ways.stream().map(w -> "cut " + w).toList());
        out.addAll(ways.stream().map(w -> "restore " + w).toList());
        return out;
    }

    /** What the nemesis asks of the target to inject a kind of fault and to heal it, in order. */
    private static List<String> injectedAndHealed(FaultKind kind) {
        return switch (kind) {
            case PAUSE_DATA -> List.of("pause", "resume");
            case PARTITION_DATA -> List.of("isolate", "reconnect");
            case SLOW_FSYNC_LOG -> List.of("hook-slow-fsync", "unhook-slow-fsync");
            case DISK_PRESSURE_DATA -> List.of("hook-disk-used-percent", "unhook-disk-used-percent");
            // a log node's journal opens again by itself once its disk takes writes: no restart
            case DISK_FULL_LOG, DISK_FULL_DATA -> List.of("hook-disk-full", "unhook-disk-full");
            case FS_FULL_DATA, FS_FULL_LOG -> List.of("fill", "free");
            default -> List.of("kill", "restart");
        };
    }

    @Test
    void injectsEveryKindOnceAndHealsEachOnItsVictimBeforeTheNext() throws Exception {
        List<String> calls = run(new Recording(), 7, FaultRun.allKinds());
        assertThat(calls).filteredOn(c -> c.startsWith("isolate")).hasSize(1);
        assertThat(run(new Recording(), 7, FaultRun.allKinds())).as("replayed from its seed").isEqualTo(calls);
        assertThat(run(new Recording(), 8, FaultRun.allKinds())).as("another seed, another schedule")
                .isNotEqualTo(calls);
    }

    @Test
    void aKindTheTargetCannotInjectIsRefusedBeforeTheRun() {
        FaultRun.Schedule schedule = new FaultRun.Schedule(1, 1, Duration.ofSeconds(1), 1,
                List.of(FaultKind.KILL_DATA, FaultKind.PAUSE_DATA), Duration.ofMillis(1), Duration.ofMillis(1));
        Recording target = new Recording();
        target.pauses = false;
        assertThatThrownBy(() -> FaultRun.run(target, schedule)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("pause-data");
        assertThat(target.calls).isEmpty();
    }
}
