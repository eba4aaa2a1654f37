package org.autodisk.node.ops;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.autodisk.core.protocol.ProtocolException;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.meta.CommandResult;
import org.autodisk.node.meta.MetadataException;

/**
 * How an administrator's metadata change (a split, a migration's start or control) that this node could not confirm
 * is answered: OUTCOME_UNKNOWN, since it may still commit. The client then does not send it again (a second split or
 * start would be refused, and the caller told it failed although the first took effect).
 */
final class AdminCommits {

    private AdminCommits() {
    }

    /**
     * The result of a submitted change, or the answer when it was refused or could not be confirmed.
     *
     * @param nodeId  this node
     * @param result  the result, or {@code null} on error
     * @param error   the failure, or {@code null}
     * @param change  what was asked, e.g. {@code "split"}
     * @param nothing what a refusal says was done, e.g. {@code "nothing was split"}
     * @return the applied result
     * @throws ProtocolException OUTCOME_UNKNOWN if it could not be confirmed, INVALID_ARGUMENT if it was refused
     */
    static CommandResult applied(String nodeId, CommandResult result, Throwable error, String change,
            String nothing) {
        if (error != null) {
            throw new ProtocolException(Status.OUTCOME_UNKNOWN, "node " + nodeId + " could not confirm the " + change
                    + " (it may still commit: the cluster's metadata shows whether it did): " + describe(error));
        }
        if (!result.applied()) {
            throw new ProtocolException(Status.INVALID_ARGUMENT, result.refusal() + "; " + nothing);
        }
        return result;
    }

    /**
     * Waits for this node to apply a committed change; if it does not in time, the answer says it committed.
     *
     * @param applied what completes once this node applied it
     * @param nodeId  this node
     * @param version the metadata version it committed at
     * @param change  what was asked
     * @param <T>     what {@code applied} gives
     * @return {@code applied}, failing with OUTCOME_UNKNOWN (naming the version) instead of its own failure
     */
    static <T> CompletableFuture<T> seen(CompletableFuture<T> applied, String nodeId, long version, String change) {
        return applied.exceptionallyCompose(e -> CompletableFuture.failedFuture(new ProtocolException(
                Status.OUTCOME_UNKNOWN, "the " + change + " committed (metadata v" + version + ") but node " + nodeId
                        + " has not applied it yet: " + describe(e))));
    }

    private static String describe(Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        return cause instanceof MetadataException ? cause.getMessage() : cause.toString();
    }
}
