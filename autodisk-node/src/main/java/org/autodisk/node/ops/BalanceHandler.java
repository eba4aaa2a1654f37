package org.autodisk.node.ops;

import org.autodisk.core.protocol.ProtocolException;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.balance.BalanceRound;

/**
 * BALANCE: one balance round run by the node asked - the balance rules evaluated on the cluster's load now; a dry
 * run only shows what they propose and why, otherwise their moves start.
 */
final class BalanceHandler implements OperationHandler {

    private final String nodeId;
    private final BalanceRound round;

    BalanceHandler(String nodeId, BalanceRound round) {
        this.nodeId = nodeId;
        this.round = round;
    }

    @Override
    public void handle(Request request) {
        byte[] body = request.frame().body();
        if (body.length != 1 || (body[0] != 0 && body[0] != 1)) {
            throw new ProtocolException(Status.MALFORMED, "BALANCE needs one byte: 1 for a dry run, 0 to start the "
                    + "moves; got " + body.length + " bytes");
        }
        round.run(body[0] == 1).whenComplete((report, error) -> {
            if (error == null) {
                Guard.run(nodeId, r -> r.reply(Responses.bytesResult(report.toJson())), request);
                return;
            }
            Guard.failed(request, error, "balance round not done");
        });
    }
}
