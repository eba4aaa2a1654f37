package org.autodisk.node.lognode;

import java.util.List;
import org.autodisk.core.protocol.BodyWriter;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.ops.OperationHandler;
import org.autodisk.node.ops.Request;
import org.autodisk.node.wal.LogStore;
import org.autodisk.node.wire.LogBatch;
import org.autodisk.node.wire.LogReadRequest;
import org.autodisk.node.wire.LogRecord;

/** LOG_READ on a log node: a stream's records from an LSN on, with the stream's last durable LSN. */
final class LogReadHandler implements OperationHandler {

    private final LogStore log;
    private final int maxResponseBytes;

    LogReadHandler(LogStore log, int maxResponseBytes) {
        this.log = log;
        this.maxResponseBytes = maxResponseBytes;
    }

    @Override
    public void handle(Request request) {
        LogReadRequest req = LogReadRequest.decode(request.frame().body());
        long last = log.lastLsn(req.stream());
        List<LogRecord> records = req.maxRecords() <= 0 ? List.of()
                : log.read(req.stream(), req.fromLsn(), req.maxRecords(), maxResponseBytes);
        request.action("log-read");
        byte[] batch = new LogBatch(req.stream(), records, last).encode();
        request.reply(new BodyWriter(batch.length + 1).u8(Status.OK.code()).raw(batch).toBytes());
    }
}
