package org.autodisk.node.data;

import org.autodisk.core.protocol.InsertRequest;
import org.autodisk.core.protocol.Responses;
import org.autodisk.node.directory.Placement;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.ops.Request;
import org.autodisk.node.wire.LogRecord;
import org.autodisk.rules.Decision;
import org.autodisk.rules.InsertRequested;
import org.autodisk.rules.RequestEvent;

/** INSERT: create or replace the stream here, through the write-ahead log with the multiplicity the rules chose. */
final class InsertHandler extends KeyedOperation<InsertRequest> {

    InsertHandler(Serving serving) {
        super(serving);
    }

    @Override
    InsertRequest decode(byte[] body, int offset) {
        return InsertRequest.decode(body, offset);
    }

    @Override
    byte[] key(InsertRequest req) {
        return req.key();
    }

    @Override
    void validate(InsertRequest req) {
        super.validate(req);
        Validation.value(serving.ctx(), req.value());
    }

    @Override
    RequestEvent event(Request request, InsertRequest req, Placement placement) {
        boolean local = placement.servedHere();
        InsertRequested.Existing replace = new InsertRequested.Existing(
                () -> local && serving.services().store().contains(req.key()));
        return new InsertRequested(request.id(), RuleGate.text(req.key()), req.value().length, local,
                placement.rangeId(), request.frame().hops(), replace);
    }

    @Override
    void serve(Request request, InsertRequest req, RangeDescriptor range, Decision decision) {
        RangeDescriptor now = ownedNow(request, range, req.key());
        if (now == null) {
            return;
        }
        LoggedWrite.write(this, request, now, LogRecord.PUT, req.key(), req.value(), decision,
                created -> Responses.ok());
    }
}
