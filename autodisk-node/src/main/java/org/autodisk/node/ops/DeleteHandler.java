package org.autodisk.node.ops;

import org.autodisk.core.protocol.KeyRequest;
import org.autodisk.core.protocol.LogRecord;
import org.autodisk.core.protocol.Responses;
import org.autodisk.node.directory.KeyRange;

/** DELETE: remove a stream on its owner and say whether it existed. */
final class DeleteHandler implements OperationHandler {

    private final NodeContext ctx;
    private final Router router;

    DeleteHandler(NodeContext ctx, Router router) {
        this.ctx = ctx;
        this.router = router;
    }

    @Override
    public void handle(Request request) {
        KeyRequest req = KeyRequest.decode(request.frame().body());
        Validation.key(ctx, req.key());
        KeyRange range = router.localRange(request, req.key());
        if (range != null) {
            LogRecord change = new LogRecord(range.id(), range.epoch(), 0, LogRecord.DELETE, req.key(), new byte[0]);
            LoggedWrite.write(ctx, request, range, change, Responses::deleteResult);
        }
    }
}
