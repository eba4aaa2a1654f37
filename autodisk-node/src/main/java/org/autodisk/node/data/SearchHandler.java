package org.autodisk.node.data;

import org.autodisk.core.protocol.KeyRequest;
import org.autodisk.core.protocol.Responses;
import org.autodisk.node.directory.Placement;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.ops.Request;
import org.autodisk.rules.Decision;
import org.autodisk.rules.RequestEvent;
import org.autodisk.rules.SearchRequested;

/** SEARCH: read the stream here. */
final class SearchHandler extends KeyOnlyOperation {

    SearchHandler(Serving serving) {
        super(serving);
    }

    @Override
    RequestEvent event(Request request, KeyRequest req, Placement placement) {
        return new SearchRequested(request.id(), RuleGate.text(req.key()), placement.servedHere(),
                placement.rangeId(), request.frame().hops());
    }

    @Override
    void serve(Request request, KeyRequest req, RangeDescriptor range, Decision decision) {
        request.action("store");
        long t0 = System.nanoTime();
        byte[] value = serving.services().store().get(req.key());
        request.component("store", System.nanoTime() - t0);
        request.reply(Responses.searchResult(value));
    }
}
