package org.autodisk.node.ops;

import java.util.List;
import org.autodisk.core.protocol.BodyWriter;
import org.autodisk.core.protocol.LogBatch;
import org.autodisk.core.protocol.LogReadRequest;
import org.autodisk.core.protocol.LogRecord;
import org.autodisk.core.protocol.Status;

/** LOG_READ on a log node: a stream's records from an LSN on, with the stream's last durable LSN. */
final class LogReadHandler implements OperationHandler {

    private final NodeContext ctx;

    LogReadHandler(NodeContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void handle(Request request) {
        LogReadRequest req = LogReadRequest.decode(request.frame().body());
        long last = ctx.logStore().lastLsn(req.stream());
        List<LogRecord> records = req.maxRecords() <= 0 ? List.of()
                : ctx.logStore().read(req.stream(), req.fromLsn(), req.maxRecords(), ctx.maxResponseBytes());
        request.action("log-read");
        byte[] batch = new LogBatch(req.stream(), records, last).encode();
        request.reply(new BodyWriter(batch.length + 1).u8(Status.OK.code()).raw(batch).toBytes());
    }
}
