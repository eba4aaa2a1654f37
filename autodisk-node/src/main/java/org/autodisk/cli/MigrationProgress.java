package org.autodisk.cli;

import java.io.PrintStream;
import java.util.Map;
import org.autodisk.client.AutoDiskAdmin;
import org.autodisk.core.cluster.MigrationStatus;

/** Follows one migration until it has finished, printing a progress line twice a second (the rate is the average
 * since it began following, from the progress the target records every few seconds). */
final class MigrationProgress {

    private static final long PERIOD_MS = 500;

    private MigrationProgress() {
    }

    /**
     * Waits for a migration to finish.
     *
     * @param admin the admin view
     * @param start the migration as started
     * @param out   where the progress goes
     * @return 0 once the migration is gone from the metadata (finished or aborted)
     * @throws InterruptedException if interrupted while waiting
     */
    static int follow(AutoDiskAdmin admin, MigrationStatus start, PrintStream out) throws InterruptedException {
        Map<Integer, Long> sizes = MigrationsCommand.rangeBytes(admin);
        long total = sizes.getOrDefault(start.rangeId(), -1L);
        long startedAt = System.nanoTime();
        while (true) {
            Thread.sleep(PERIOD_MS);
            MigrationStatus now = admin.migrations().migrations().stream().filter(m -> m.id() == start.id())
                    .findFirst().orElse(null);
            if (now == null) {
                out.println();
                out.println((start.backup() ? "backup fill " : "migration ") + start.id() + " has ended; `autodisk "
                        + "ranges` shows range " + start.rangeId() + (start.backup() ? "'s backup" : "'s owner"));
                return 0;
            }
            double rate = (now.bytesCopied() - start.bytesCopied()) * 1e9 / Math.max(1, System.nanoTime() - startedAt);
            out.print("\r" + MigrationTables.progress(now, total, rate));
            out.flush();
        }
    }
}
