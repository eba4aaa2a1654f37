package org.autodisk.node.lognode;

import java.util.ArrayList;
import java.util.List;
import org.autodisk.node.ledger.LedgerEntry;
import org.autodisk.node.ledger.LogNodeLedgers;
import org.autodisk.node.ops.OperationHandler;
import org.autodisk.node.ops.Request;
import org.autodisk.node.wire.LedgerReadRequest;
import org.autodisk.node.wire.LedgerWire;
import org.autodisk.node.wire.LogRecord;

/**
 * LEDGER_READ on a log node: the consecutive entries it holds from an entry on, cut at the node's response size (at
 * least one entry). Reads the journal, so it runs on a worker of the request queue.
 */
final class LedgerReadHandler implements OperationHandler {

    private static final int CHUNK = 32;
    private static final int HEADROOM = 64;

    private final LogNodeLedgers ledgers;
    private final int maxResponseBytes;

    LedgerReadHandler(LogNodeLedgers ledgers, int maxResponseBytes) {
        this.ledgers = ledgers;
        this.maxResponseBytes = maxResponseBytes;
    }

    @Override
    public void handle(Request request) {
        LedgerReadRequest req = LedgerReadRequest.decode(request.frame().body());
        request.action("ledger-read");
        request.reply(LedgerWire.entriesResult(read(req)));
    }

    /** Reads a few entries at a time, so that large entries never bring more than one answer's worth in. */
    private List<LogRecord> read(LedgerReadRequest req) {
        List<LogRecord> out = new ArrayList<>();
        long bytes = 0;
        long next = req.from();
        while (out.size() < req.max()) {
            List<LedgerEntry> chunk = ledgers.read(req.ledgerId(), next, Math.min(CHUNK, req.max() - out.size()));
            for (LedgerEntry e : chunk) {
                LogRecord r = e.toRecord();
                bytes += r.encodedSize();
                if (!out.isEmpty() && bytes > maxResponseBytes - HEADROOM) {
                    return out;
                }
                out.add(r);
            }
            if (chunk.size() < CHUNK) {
                return out;
            }
            next += chunk.size();
        }
        return out;
    }
}
