package org.autodisk.node.data;

import java.nio.charset.StandardCharsets;
import org.autodisk.core.Keys;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.directory.Placement;
import org.autodisk.node.ops.NodeContext;
import org.autodisk.node.ops.Request;
import org.autodisk.node.rangelog.WriteAheadLog;
import org.autodisk.rules.Decision;
import org.autodisk.rules.Evaluation;
import org.autodisk.rules.InsertRequested;
import org.autodisk.rules.RequestEvent;

/**
 * Asks the rules what to do with a request. A decision that cannot be carried out here - a rule that threw,
 * a refusal, no decision, forwarding a key this node owns, serving one it does not own, an impossible log
 * multiplicity - is answered with an error that says why; the caller gets a decision only when it can act on it.
 */
final class RuleGate {

    private final NodeContext ctx;
    private final WriteAheadLog wal;

    RuleGate(NodeContext ctx, WriteAheadLog wal) {
        this.ctx = ctx;
        this.wal = wal;
    }

    /**
     * Returns the key as the text rules match on (UTF-8; bytes that are not UTF-8 become U+FFFD).
     *
     * @param key the key
     * @return its text
     */
    static String text(byte[] key) {
        return new String(key, StandardCharsets.UTF_8);
    }

    /**
     * Decides a keyed request.
     *
     * @param request the request
     * @param event     its event, built with the placement
     * @param placement where the key's request goes from this node
     * @return the decision, or {@code null} when the request has been answered with an error
     */
    Decision decide(Request request, RequestEvent event, Placement placement) {
        long t0 = System.nanoTime();
        Evaluation evaluation = ctx.rules().decide(event);
        if (event instanceof InsertRequested insert) {
            insert.existing().seal(); // decided: a later evaluation (Drools' compiling thread) never reads the store
        }
        long nanos = System.nanoTime() - t0;
        ctx.metrics().ruleTime(nanos);
        request.component("rules", nanos);
        if (evaluation.isFailure()) {
            request.replyError(Status.RULE_FAILED, "rule '" + evaluation.failedRule() + "' failed on node "
                    + ctx.nodeId() + " for key " + event.key() + ": " + evaluation.failure());
            return null;
        }
        Decision decision = evaluation.decision();
        String problem = problem(decision, event, placement);
        if (problem != null) {
            request.replyError(decision.kind() == Decision.Kind.REFUSE ? Status.REFUSED : Status.RULE_FAILED, problem);
            return null;
        }
        return decision;
    }

    private String problem(Decision decision, RequestEvent event, Placement placement) {
        return switch (decision.kind()) {
            case REFUSE -> decision.reason().isBlank() ? "a rule refused the request for key " + event.key()
                    + " on node " + ctx.nodeId() : decision.reason();
            case NONE -> "no rule decided the request for key " + event.key() + " on node " + ctx.nodeId()
                    + ": the rules must forward, handle or refuse every request (is routing.drl missing?)";
            case FORWARD -> event.ownerIsLocal() ? "the rules forwarded the request for key " + event.key()
                    + ", but node " + ctx.nodeId() + " owns range " + placement.rangeId() + ": it would loop" : null;
            case HANDLE_LOCALLY -> event.ownerIsLocal() ? null : "the rules chose to serve key " + event.key()
                    + " on node " + ctx.nodeId() + ", which does not own it (its request goes to "
                    + placement.nextHop() + ")";
        };
    }

    /**
     * Checks the log multiplicity decided for a write against the log nodes this data node's ledgers go to.
     *
     * @param request  the write
     * @param decision its decision (handle locally)
     * @param key      its key
     * @return true if the write can go ahead; false if it has been answered with an error
     */
    boolean multiplicityPossible(Request request, Decision decision, byte[] key) {
        int m = decision.logMultiplicity();
        int ships = wal.logNodes().size();
        if (ships == 0 || m >= 1 && m <= ships) {
            return true;
        }
        request.replyError(Status.RULE_FAILED, "the rules gave key " + Keys.render(key) + " log multiplicity " + m
                + ", but data node " + ctx.nodeId() + " logs to " + ships + " log node(s) " + wal.logNodes()
                + " (1.." + ships + " possible; wal.multiplicity or rules.double-log-prefixes set how many)");
        return false;
    }
}
