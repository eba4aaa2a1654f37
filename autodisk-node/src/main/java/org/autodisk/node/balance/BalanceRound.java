package org.autodisk.node.balance;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import org.autodisk.core.cluster.BalanceReport;
import org.autodisk.core.protocol.ProtocolException;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.meta.CommandResult;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.MetaTransitions;
import org.autodisk.node.meta.MigrationInfo;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.ops.NodeContext;
import org.autodisk.node.ops.Splits;
import org.autodisk.node.rules.MigrationProposal;
import org.autodisk.node.store.DiskSpace;
import org.autodisk.node.store.RangeUsage;
import org.autodisk.rules.ClusterLoad;
import org.autodisk.rules.NodeLoad;

/**
 * One balance round: gathers the cluster's load, evaluates the balance rules on it once and, unless it is a dry
 * run, starts what they propose (with those other rules proposed since the last round) through the committed
 * metadata, at most one move per source node and range per round (backup fills first), marked as started by the
 * rules. A proposal the
 * metadata refuses (the range changed meanwhile, the target is not up) is reported with the refusal, not retried; one
 * that this node's own metadata refuses already is not proposed at all.
 */
public final class BalanceRound {

    private final NodeContext ctx;
    private final LoadGathering gathering;
    private final UpperHalves halves;

    /**
     * Creates the rounds of one node.
     *
     * @param ctx         the node
     * @param ownUsage    this node's own range usage (an empty map on a log node)
     * @param ownDisk     the space of this node's disk ({@code null} on a log node)
     * @param ownSplitKey the middle stream's key of a range this node owns ({@code null}: fewer than two streams, or
     *                    a log node)
     * @param splits      this node's splitter (a split of a range it owns opens the halves' ledgers)
     */
    public BalanceRound(NodeContext ctx, Supplier<Map<Integer, RangeUsage>> ownUsage, Supplier<DiskSpace> ownDisk,
            BiFunction<byte[], byte[], byte[]> ownSplitKey, Splits splits) {
        this.ctx = ctx;
        this.gathering = new LoadGathering(ctx, ownUsage, ownDisk);
        this.halves = new UpperHalves(ctx, ownSplitKey, splits);
    }

    /**
     * Runs one round.
     *
     * @param dryRun true to only show what the rules propose
     * @return the facts and the proposals with their outcome
     */
    public CompletableFuture<BalanceReport> run(boolean dryRun) {
        MetaState meta = ctx.metadata().current();
        if (!meta.bootstrapped()) {
            return CompletableFuture.failedFuture(new ProtocolException(Status.NODE_UNAVAILABLE,
                    ctx.metadataNotReady()));
        }
        return gathering.gather(meta).thenApplyAsync(load -> evaluate(load, dryRun))
                .thenCompose(proposals -> start(meta, proposals, dryRun))
                .thenApply(outcomes -> report(meta, dryRun, outcomes));
    }

    private Evaluated evaluate(ClusterLoad load, boolean dryRun) {
        List<MigrationProposal> proposals = new ArrayList<>(ctx.rules().balance(load));
        if (!dryRun) {
            proposals.addAll(ctx.rules().pendingMigrations());
        }
        return new Evaluated(load, proposals);
    }

    private CompletableFuture<Started> start(MetaState meta, Evaluated e, boolean dryRun) {
        List<CompletableFuture<BalanceReport.Proposal>> outcomes = new ArrayList<>();
        Set<String> sources = new HashSet<>();
        Set<Integer> ranges = new HashSet<>();
        DiskRoom room = new DiskRoom(e.load(), ctx.rules().maxDiskUsedPercent());
        List<MigrationProposal> fillsFirst = new ArrayList<>(e.proposals());
        // a missing backup before any balancing (a backup's move is balancing)
        fillsFirst.sort(Comparator.comparing(p -> !(p.backup() && p.replaces() == null)));
        for (MigrationProposal p : fillsFirst) {
            RangeDescriptor r = meta.range(p.rangeId());
            String from = r == null ? "" : r.owner();
            if (r == null) {
                outcomes.add(done(p, "", from, "not started: there is no range " + p.rangeId()));
            } else if (dryRun) {
                outcomes.add(done(p, r.span(), from, "proposed"));
            } else if (ranges.contains(r.id()) || sources.contains(from)) {
                outcomes.add(done(p, r.span(), from, "not started: one move per range and source node per round"));
            } else if (!room.take(p.target(), r.id(), p.upperHalf())) {
                outcomes.add(done(p, r.span(), from, "not started: " + room.refusal(p.target(), r.id())));
            } else {
                ranges.add(r.id());
                sources.add(from);
                outcomes.add(commit(r, p));
            }
        }
        return CompletableFuture.allOf(outcomes.toArray(CompletableFuture[]::new))
                .thenApply(v -> new Started(e.load(), outcomes.stream().map(CompletableFuture::join).toList()));
    }

    private CompletableFuture<BalanceReport.Proposal> commit(RangeDescriptor r, MigrationProposal p) {
        CompletableFuture<RangeDescriptor> moving = p.upperHalf() ? halves.split(r)
                : CompletableFuture.completedFuture(r);
        return moving.thenCompose(m -> submit(new MetaCommand.StartMigration(m.id(), m.epoch(), m.generation(),
                p.target(), MigrationInfo.DEFAULT_RATE, "rules", p.backup(), p.replaces()))
                .thenApply(res -> outcome(p, r, m, res))).exceptionally(error -> {
                    Throwable cause = error instanceof CompletionException && error.getCause() != null
                            ? error.getCause() : error;
                    return proposal(p, r.span(), r.owner(), "not started: " + cause.getMessage(), -1);
                });
    }

    /**
     * Proposes a start unless this node's metadata refuses it already: a proposal the rules repeat every round while
     * the cluster stays as it is (a move of a range that shares a ledger after a split, say) costs no commit each
     * round. A view behind the leader's that refuses what the leader would take delays the start to a later round.
     */
    private CompletableFuture<CommandResult> submit(MetaCommand.StartMigration start) {
        MetaState seen = ctx.metadata().current();
        CommandResult here = MetaTransitions.apply(seen, seen.version() + 1, start).result();
        return here.applied() ? ctx.metadata().submit(start, ctx.metadataTimeout())
                : CompletableFuture.completedFuture(here);
    }

    private static BalanceReport.Proposal outcome(MigrationProposal p, RangeDescriptor r, RangeDescriptor moving,
            CommandResult res) {
        String what = p.backup() ? "started a backup fill" + (p.replaces() == null ? "" : " replacing "
                + p.replaces()) : moving == r ? "started"
                : "started on its upper half, range " + moving.id() + " " + moving.span() + " after a split";
        return res.applied() ? proposal(p, r.span(), r.owner(), what, res.migrationId())
                : proposal(p, r.span(), r.owner(), "not started: " + res.refusal(), -1);
    }

    private static CompletableFuture<BalanceReport.Proposal> done(MigrationProposal p, String span, String from,
            String outcome) {
        return CompletableFuture.completedFuture(proposal(p, span, from, outcome, -1));
    }

    private static BalanceReport.Proposal proposal(MigrationProposal p, String span, String from, String outcome,
            long id) {
        return new BalanceReport.Proposal(p.rangeId(), span, from, p.target(), p.reason(), outcome, id);
    }

    private BalanceReport report(MetaState meta, boolean dryRun, Started s) {
        List<BalanceReport.Node> nodes = s.load().nodes().stream().map(BalanceRound::node).toList();
        return new BalanceReport(ctx.nodeId(), meta.version(), dryRun, s.load().migrations(),
                s.load().averageBytes(), nodes, s.proposals());
    }

    private static BalanceReport.Node node(NodeLoad n) {
        return new BalanceReport.Node(n.nodeId(), n.state(), n.ranges(), n.keys(), n.bytes(),
                n.requestsPerSecond(), n.diskUsedPercent());
    }

    /** The facts of a round and the rules' proposals. */
    private record Evaluated(ClusterLoad load, List<MigrationProposal> proposals) {
    }

    /** The facts of a round and what became of each proposal. */
    private record Started(ClusterLoad load, List<BalanceReport.Proposal> proposals) {
    }
}
