package org.autodisk.node.ops;

import org.autodisk.core.protocol.KeyRequest;
import org.autodisk.core.protocol.Responses;

/** SPLIT: splits the range holding a key at that key, proposed by the node asked; answers the two halves. */
final class SplitHandler implements OperationHandler {

    private final String nodeId;
    private final Splits splits;

    SplitHandler(String nodeId, Splits splits) {
        this.nodeId = nodeId;
        this.splits = splits;
    }

    @Override
    public void handle(Request request) {
        byte[] key = KeyRequest.decode(request.frame().body()).key();
        splits.atKey(key).whenComplete((result, error) -> {
            if (error == null) {
                Guard.run(nodeId, r -> r.reply(Responses.bytesResult(result.toJson())), request);
                return;
            }
            Guard.failed(request, error, "split not done");
        });
    }
}
