package org.autodisk.node.ops;

import org.autodisk.core.protocol.InsertRequest;
import org.autodisk.core.protocol.LogRecord;
import org.autodisk.core.protocol.Responses;
import org.autodisk.node.directory.KeyRange;

/** INSERT: create or replace a stream on its owner (through the write-ahead log when the cluster has one). */
final class InsertHandler implements OperationHandler {

    private final NodeContext ctx;
    private final Router router;

    InsertHandler(NodeContext ctx, Router router) {
        this.ctx = ctx;
        this.router = router;
    }

    @Override
    public void handle(Request request) {
        InsertRequest req = InsertRequest.decode(request.frame().body());
        Validation.key(ctx, req.key());
        Validation.value(ctx, req.value());
        KeyRange range = router.localRange(request, req.key());
        if (range != null) {
            LogRecord change = new LogRecord(range.id(), range.epoch(), 0, LogRecord.PUT, req.key(), req.value());
            LoggedWrite.write(ctx, request, range, change, created -> Responses.ok());
        }
    }
}
