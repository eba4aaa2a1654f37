package org.autodisk.node.meta;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * A node's view of the cluster metadata: the committed state it has applied, the changes it proposes, and who is
 * told when the state changes. The real one replicates through Apache Ratis ({@link #ratis}); an in-memory one
 * shares one state among the nodes of a test ({@link InMemoryMetadataGroup}).
 */
public interface Metadata extends AutoCloseable {

    /**
     * Returns the state this node has applied.
     *
     * @return the state ({@link MetaState#EMPTY} before the cluster is bootstrapped)
     */
    MetaState current();

    /**
     * Tells a listener of every applied change, and of the current state at once.
     *
     * @param listener called with each new state, on the thread that applied it; must not block
     */
    void subscribe(Consumer<MetaState> listener);

    /**
     * Tells a listener of every command this node applies from now on, in log order, each with the states before and
     * after it; where this node skipped commands (a snapshot, held updates) it is told of one gap instead.
     *
     * @param listener called with each applied command, on the thread that applied it; must not block
     */
    void subscribeCommands(Consumer<Applied> listener);

    /**
     * Waits until this node has applied a version of the metadata (another node named it: a node that routed
     * with a newer map, or the commit of a change this node proposed).
     *
     * @param version the version
     * @param timeout how long at most
     * @return the first state applied at or above it; fails with a {@link MetadataException} after the timeout
     */
    CompletableFuture<MetaState> awaitVersion(long version, Duration timeout);

    /**
     * Asks the group's leader how far it has applied the committed changes, so that a decision taken on
     * {@code awaitVersion} of the answer sees every change committed and applied by the leader before this call,
     * however far behind this node's copy or another node's was (a leader answers only once it applied a change, so
     * every change any node learned was committed is in it; a leader deposed without knowing it yet may answer less,
     * for at most an election timeout). The default, for a metadata of one replica, is its own version.
     *
     * @param timeout how long at most
     * @return the leader's version; fails with a {@link MetadataException} when no leader answers in time
     */
    default CompletableFuture<Long> committedVersion(Duration timeout) {
        return CompletableFuture.completedFuture(current().version());
    }

    /**
     * A command every state refuses (there is no migration -1): committed only to order a view after everything
     * committed before it ({@link #awaitCommitted}).
     */
    MetaCommand BARRIER = new MetaCommand.EndMigration(-1, false, "a barrier: it ends no migration");

    /**
     * Waits until this node's copy holds every change committed before this call: commits {@link #BARRIER} and waits
     * until this copy applied it. A decision that something is no longer wanted here must not be taken on a copy that
     * is behind (a node that restarted replays old changes first); unlike {@link #committedVersion}, no leader that is
     * deposed or still applying what it committed can answer too little, since the barrier itself must commit.
     *
     * @param timeout how long each of the two steps (the commit, this copy's apply) may take
     * @return the state then; fails with a {@link MetadataException} when the barrier does not commit or the copy
     *         lags in time
     */
    default CompletableFuture<MetaState> awaitCommitted(Duration timeout) {
        return submit(BARRIER, timeout).thenCompose(r -> awaitVersion(r.version(), timeout));
    }

    /**
     * Proposes a change; it applies only if committed and if its expectations hold.
     *
     * @param command  the change
     * @param deadline how long to wait for the commit
     * @return the command's result, once this node's copy ({@link #current()}) has applied it too; fails with a
     *         {@link MetadataException} when it could not be committed in time (no majority of voters, say), which
     *         leaves open whether it was
     */
    CompletableFuture<CommandResult> submit(MetaCommand command, Duration deadline);

    /**
     * Returns how long committed changes took from their proposal (on any node) to their apply here, in
     * nanoseconds; changes proposed before this replica started (replayed from its log) are not counted.
     *
     * @return the histogram
     */
    Histogram applyLag();

    /**
     * Returns this node's part in the replication.
     *
     * @return the status
     */
    MetadataStatus status();

    /** Stops following and proposing; the state is kept where it is stored. */
    @Override
    void close();

    /**
     * Starts the Ratis replica of this node.
     *
     * @param settings where it runs and who the voters are
     * @return the running replica
     * @throws MetadataException if its storage or port cannot be used
     */
    static Metadata ratis(MetadataSettings settings) {
        return RatisMetadata.start(settings);
    }
}
