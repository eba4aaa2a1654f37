package org.autodisk.it;

import java.util.concurrent.Executor;

/**
 * Runs a test's blocking background work (a load, reading a process's output) on a daemon thread of its own, never on
 * the shared common pool: a task left blocked by one failed test must not starve the next.
 */
public final class OwnThread {

    private OwnThread() {
    }

    /**
     * An executor that starts a new daemon thread for each task.
     *
     * @param name the threads' name
     * @return the executor
     */
    public static Executor named(String name) {
        return task -> Thread.ofPlatform().daemon().name(name).start(task);
    }
}
