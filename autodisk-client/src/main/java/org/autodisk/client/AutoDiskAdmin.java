package org.autodisk.client;

import java.util.concurrent.CompletableFuture;
import org.autodisk.core.Keys;
import org.autodisk.core.cluster.DirectoryReport;
import org.autodisk.core.cluster.MembersReport;
import org.autodisk.core.cluster.RangesReport;
import java.util.HexFormat;
import org.autodisk.core.cluster.MigrationCommand;
import org.autodisk.core.cluster.MigrationStatus;
import org.autodisk.core.cluster.BalanceReport;
import org.autodisk.core.cluster.MigrationsReport;
import org.autodisk.core.cluster.SplitResult;

/**
 * The administrative view of a client ({@link AutoDiskClient#admin()}): the cluster's ranges and members as its
 * metadata records them, and splits. Shares the client's connection; thread-safe.
 */
public final class AutoDiskAdmin {

    private final AutoDiskClient client;
    private final DefaultAsyncClient async;

    AutoDiskAdmin(AutoDiskClient client, DefaultAsyncClient async) {
        this.client = client;
        this.async = async;
    }

    /**
     * Lists every range: span, owner, backups, log nodes, epoch, generation, state, and the keys and bytes its
     * owner holds.
     *
     * @return the ranges in key order, as the connected node's metadata has them
     */
    public RangesReport ranges() {
        return client.await(async.ranges());
    }

    /**
     * Describes the directory as every data node holds it: under the Fat-Btree each node's index page copies (level,
     * fence keys, copy set) and its leaves, the tree's height and its distinct index pages.
     *
     * @return the directory, gathered by the connected node
     */
    public DirectoryReport directory() {
        return client.await(async.directory());
    }

    /**
     * Lists every member with its state and metadata replica.
     *
     * @return the members
     */
    public MembersReport members() {
        return client.await(async.members());
    }

    /**
     * Splits the range holding a key at that key: both halves stay on the owner, the data does not move, and the
     * generation of both rises by one. Not retried after a lost connection (a second split would be refused).
     *
     * @param key the first key of the right half; must lie strictly inside a range
     * @return the two halves
     * @throws InvalidRequestException if the key is malformed, already starts a range, or the split was refused
     * @throws NodeUnavailableException if the metadata could not commit it (no majority of its voters)
     */
    public SplitResult split(byte[] key) {
        return client.await(async.split(key));
    }

    /**
     * Splits at a string key, encoded as UTF-8.
     *
     * @param key the first key of the right half
     * @return the two halves
     */
    public SplitResult split(String key) {
        return split(Keys.utf8(key));
    }

    /**
     * As {@link #split(byte[])}, without waiting.
     *
     * @param key the first key of the right half
     * @return the two halves; fails as {@link #split(byte[])} throws
     */
    public CompletableFuture<SplitResult> splitAsync(byte[] key) {
        return async.split(key);
    }

    /**
     * Starts moving a range to another data node. The nodes copy it, catch up from its log and cut over among
     * themselves; this returns once the migration is recorded. Follow it with {@link #migrations()}.
     *
     * @param rangeId   the range
     * @param target    the data node it moves to
     * @param rateBytes the throttle in bytes/s (0: unthrottled), or {@code null} for the target's
     *                  {@code migration.rate-bytes}
     * @return the migration as recorded
     * @throws InvalidRequestException if the range or node is unknown, the target owns the range or is not a data
     *                                 node, or the range is already moving (nothing changed)
     */
    public MigrationStatus migrate(int rangeId, String target, Long rateBytes) {
        return client.await(async.migrate(MigrationCommand.start(rangeId, target, rateBytes)));
    }

    /**
     * Fills a backup of a range: the target copies the range from its owner into its backup copy and catches up from
     * the range's log, as a migration does, and then is the range's backup; the owner serves the range throughout. A
     * range without a backup (after it moved to its backup, or after a failover) gets one; a range with a backup has
     * it moved to the target (off a full disk, say): the old backup keeps backing the range up until the new copy
     * caught up, then the target takes its place and the old one drops its copy. Follow it with {@link #migrations()}
     * (shown with {@code backup} set).
     *
     * @param rangeId   the range
     * @param target    the data node that becomes its backup
     * @param rateBytes the throttle in bytes/s (0: unthrottled), or {@code null} for the default
     * @return the fill as recorded
     * @throws InvalidRequestException if the range or node is unknown, the range is moving, the target owns it,
     *                                 backs it up already or is not a data node (nothing changed)
     */
    public MigrationStatus fillBackup(int rangeId, String target, Long rateBytes) {
        return client.await(async.migrate(MigrationCommand.startBackup(rangeId, target, rateBytes)));
    }

    /**
     * Starts moving the range holding a key; with a split key, splits the range there first and moves the part from
     * the split key on.
     *
     * @param key       a key of the range
     * @param target    the data node it moves to
     * @param splitAt   where to split first, or {@code null}
     * @param rateBytes the throttle in bytes/s (0: unthrottled), or {@code null} for the default
     * @return the migration as recorded
     */
    public MigrationStatus migrate(byte[] key, String target, byte[] splitAt, Long rateBytes) {
        return client.await(async.migrate(MigrationCommand.startByKey(HexFormat.of().formatHex(key), target,
                splitAt == null ? null : HexFormat.of().formatHex(splitAt), rateBytes)));
    }

    /**
     * Pauses a migration between two chunks; its progress is kept.
     *
     * @param id the migration
     * @return its state
     */
    public MigrationStatus pauseMigration(long id) {
        return client.await(async.migrate(MigrationCommand.control("pause", id)));
    }

    /**
     * Resumes a paused migration from where it was.
     *
     * @param id the migration
     * @return its state
     */
    public MigrationStatus resumeMigration(long id) {
        return client.await(async.migrate(MigrationCommand.control("resume", id)));
    }

    /**
     * Aborts a migration before its cutover: the range stays where it is and the target drops its partial copy.
     *
     * @param id the migration
     * @return its state ({@code aborted})
     * @throws InvalidRequestException if it has cut over already (it can only finish)
     */
    public MigrationStatus abortMigration(long id) {
        return client.await(async.migrate(MigrationCommand.control("abort", id)));
    }

    /**
     * Changes a migration's throttle while it runs.
     *
     * @param id        the migration
     * @param rateBytes bytes/s, 0 for unthrottled
     * @return its state
     */
    public MigrationStatus throttleMigration(long id, long rateBytes) {
        return client.await(async.migrate(MigrationCommand.rate(id, rateBytes)));
    }

    /**
     * Lists the migrations under way with their phase and progress.
     *
     * @return the migrations
     */
    public MigrationsReport migrations() {
        return client.await(async.migrations());
    }

    /**
     * Runs one balance round on the node asked: the balance rules evaluated on the cluster's load now.
     *
     * @param dryRun true to only see what they would move and why; false to start those moves
     * @return the facts the rules saw and each proposal with its outcome
     */
    public BalanceReport balance(boolean dryRun) {
        return client.await(async.balance(dryRun));
    }

    /**
     * Moves a range the way a host moves data between conventional disks - the baseline of the autonomous
     * {@link #migrate(int, String, Long)}: this client reads the range page by page (TRAVERSE through any node) and
     * writes each page straight to the target, then the target catches up from the range's ledgers and cuts over as
     * in any migration. Returns when the migration has ended. A copy that fails aborts the migration (the range
     * stays on its owner); so does a restart of the target during the copy.
     *
     * @param rangeId the range
     * @param target  the data node it moves to
     * @return what the move cost
     * @throws InterruptedException if interrupted while waiting (the migration goes on)
     */
    public HostMoveResult moveByHost(int rangeId, String target) throws InterruptedException {
        return new HostMove(client, async).run(rangeId, target);
    }
}
