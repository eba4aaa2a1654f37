package org.autodisk.node.data;

import org.autodisk.core.protocol.KeyRequest;
import org.autodisk.core.protocol.Responses;
import org.autodisk.node.directory.Placement;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.ops.Request;
import org.autodisk.node.wire.LogRecord;
import org.autodisk.rules.Decision;
import org.autodisk.rules.DeleteRequested;
import org.autodisk.rules.RequestEvent;

/** DELETE: remove the stream here through the write-ahead log and say whether it existed. */
final class DeleteHandler extends KeyOnlyOperation {

    DeleteHandler(Serving serving) {
        super(serving);
    }

    @Override
    RequestEvent event(Request request, KeyRequest req, Placement placement) {
        return new DeleteRequested(request.id(), RuleGate.text(req.key()), placement.servedHere(),
                placement.rangeId(), request.frame().hops());
    }

    @Override
    void serve(Request request, KeyRequest req, RangeDescriptor range, Decision decision) {
        RangeDescriptor now = ownedNow(request, range, req.key());
        if (now == null) {
            return;
        }
        LoggedWrite.write(this, request, now, LogRecord.DELETE, req.key(), new byte[0], decision,
                Responses::deleteResult);
    }
}
