package org.autodisk.node.data;

import org.autodisk.core.protocol.KeyRequest;

/** A keyed operation whose body is only its key (SEARCH, DELETE). */
abstract class KeyOnlyOperation extends KeyedOperation<KeyRequest> {

    KeyOnlyOperation(Serving serving) {
        super(serving);
    }

    @Override
    final KeyRequest decode(byte[] body, int offset) {
        return KeyRequest.decode(body, offset);
    }

    @Override
    final byte[] key(KeyRequest req) {
        return req.key();
    }
}
