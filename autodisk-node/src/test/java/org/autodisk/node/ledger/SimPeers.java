package org.autodisk.node.ledger;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * {@link LedgerPeers} over the simulation's links: a request to a log node that is down, or an answer, may be lost;
 * a request not answered within the peer channel's timeout fails (UNAVAILABLE), as it does over a connection.
 */
final class SimPeers implements LedgerPeers {

    private final SimWorld world;
    private final String caller;
    private final Supplier<Boolean> alive;

    SimPeers(SimWorld world, String caller, Supplier<Boolean> alive) {
        this.world = world;
        this.caller = caller;
        this.alive = alive;
    }

    @Override
    public CompletableFuture<Long> append(String logNode, long ledgerId, long fragmentStart, boolean recovery,
            long lac, List<LedgerEntry> entries) {
        return call(logNode, n -> n.ledgers.append(ledgerId, fragmentStart, recovery, lac, entries));
    }

    @Override
    public CompletableFuture<Fenced> fence(String logNode, long ledgerId) {
        return call(logNode, n -> n.ledgers.fence(ledgerId));
    }

    @Override
    public CompletableFuture<List<Long>> confirm(String logNode, List<Long> ledgerIds) {
        return call(logNode, n -> CompletableFuture.completedFuture(n.ledgers.confirm(ledgerIds)));
    }

    @Override
    public CompletableFuture<List<LedgerEntry>> read(String logNode, long ledgerId, long from, int max) {
        return call(logNode, n -> CompletableFuture.completedFuture(n.ledgers.read(ledgerId, from, max)));
    }

    private <T> CompletableFuture<T> call(String logNode, Function<SimWorld.SimLogNode, CompletableFuture<T>> op) {
        CompletableFuture<T> answer = new CompletableFuture<>();
        world.schedule(SimWorld.REQUEST_TIMEOUT_MILLIS, () -> reply(answer, CompletableFuture.failedFuture(
                new LedgerException(LedgerException.Kind.UNAVAILABLE, "log node " + logNode + " did not answer within "
                        + SimWorld.REQUEST_TIMEOUT_MILLIS + " ms"))));
        if (world.random.nextDouble() < world.requestLoss) {
            return answer;
        }
        world.deliver(caller, logNode, () -> {
            SimWorld.SimLogNode node = world.logNodes.get(logNode);
            if (!node.up) {
                if (world.random.nextBoolean()) {
                    world.deliver(logNode, caller, () -> reply(answer, CompletableFuture.failedFuture(
                            LedgerException.notSent(logNode + " is down"))));
                }
                return;
            }
            CompletableFuture<T> done;
            try {
                done = op.apply(node);
            } catch (LedgerException e) {
                done = CompletableFuture.failedFuture(e);
            }
            // answered once durable: at once, or when a stalled disk is released
            CompletableFuture<T> result = done;
            done.whenComplete((v, e) -> {
                if (world.random.nextDouble() >= world.responseLoss) {
                    world.deliver(logNode, caller, () -> reply(answer, result));
                }
            });
        });
        return answer;
    }

    private <T> void reply(CompletableFuture<T> answer, CompletableFuture<T> result) {
        if (!alive.get()) {
            return;
        }
        result.whenComplete((v, e) -> {
            if (e == null) {
                answer.complete(v);
            } else {
                answer.completeExceptionally(e);
            }
        });
    }
}
