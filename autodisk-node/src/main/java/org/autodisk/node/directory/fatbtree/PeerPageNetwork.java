package org.autodisk.node.directory.fatbtree;

import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.peer.PeerChannel;
import org.autodisk.node.wire.PeerOp;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Page messages over the node's peer channel, one PAGE_MESSAGE request each; the channel keeps one connection per
 * peer, so messages from one node to another arrive in the order they were sent. A message the peer did not take
 * (it is down, or refused it) is logged: the change that sent it waits (a failed node's locks are #16's).
 */
final class PeerPageNetwork implements PageNetwork {

    private static final Logger LOG = LoggerFactory.getLogger(PeerPageNetwork.class);

    private final PeerChannel peers;

    PeerPageNetwork(PeerChannel peers) {
        this.peers = peers;
    }

    @Override
    public void send(String from, String to, PageMessage m) {
        Frame request = PeerOp.PAGE_MESSAGE.request(PageMessageCodec.encode(from, m));
        peers.send(to, request).whenComplete((resp, error) -> {
            if (error != null) {
                LOG.warn("{}: page message {} to {} was not delivered: {}", from, describe(m), to, error.toString());
            } else if (Responses.status(resp.body()) != Status.OK) {
                LOG.warn("{}: {} refused page message {}: {}", from, to, describe(m),
                        Responses.errorMessage(resp.body()));
            }
        });
    }

    private static String describe(PageMessage m) {
        return m instanceof PageMessage.Batch b ? "Batch[change=" + b.batch().change() + ", pages="
                + b.batch().puts().size() + "]" : m.toString();
    }
}
