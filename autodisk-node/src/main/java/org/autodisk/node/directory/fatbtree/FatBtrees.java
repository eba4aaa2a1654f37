package org.autodisk.node.directory.fatbtree;

import java.nio.file.Path;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.directory.Directory;
import org.autodisk.node.ops.OperationHandler;
import org.autodisk.node.peer.PeerChannel;

/**
 * Makes a data node's Fat-Btree directory over its peer channel: the page messages of the structure changes go to
 * the other data nodes as PAGE_MESSAGE requests, and {@link #pageHandler} takes theirs.
 */
public final class FatBtrees {

    /** The directory's name in the configuration ({@code cluster.directory}) and the metadata. */
    public static final String KIND = FatBtreeDirectory.KIND;

    private FatBtrees() {
    }

    /**
     * Creates the Fat-Btree directory of a data node.
     *
     * @param self   this node
     * @param fanout entries per index page ({@code directory.fanout})
     * @param peers  the channel to the other nodes
     * @param index  where the node keeps its index copies ({@code <data-dir>/index}), {@code null} for memory only
     *               (a node that never restarts: the in-process test clusters)
     * @return the directory; {@link Directory#follow} starts it, {@link Directory#close} closes its page store
     */
    public static Directory overPeers(String self, int fanout, PeerChannel peers, Path index) {
        PageStore store = index == null ? new InMemoryPageStore() : RocksPageStore.open(index);
        return new FatBtreeDirectory(self, fanout, new PeerPageNetwork(peers), store);
    }

    /**
     * Returns the handler of PAGE_MESSAGE on a data node. It runs inline, in the order the connection delivers the
     * frames, and only hands the message to the directory's thread, so messages between two nodes stay in order; it
     * answers once the message is taken there (what it changed is in the page store), so a sender that gets no answer
     * sends it again.
     *
     * @param directory the node's directory
     * @return the handler; it refuses page messages when the directory is not a Fat-Btree
     */
    public static OperationHandler pageHandler(Directory directory) {
        return request -> {
            if (!(directory instanceof FatBtreeDirectory fat)) {
                request.replyError(Status.INVALID_ARGUMENT, request.id() + ": this node runs the " + directory.kind()
                        + " directory; page messages belong to the " + FatBtreeDirectory.KIND + " directory");
                return;
            }
            PageMessageCodec.From m = PageMessageCodec.decode(request.frame().body());
            fat.receive(m.sender(), m.message(), () -> request.reply(Responses.ok()));
        };
    }

    /**
     * Returns the handler of PAGE_FETCH on a data node: the directory's copy of the page asked for, read on its
     * thread, for a node rebuilding the copies it lost ({@link PageFetch}).
     *
     * @param directory the node's directory
     * @return the handler; it refuses fetches when the directory is not a Fat-Btree
     */
    public static OperationHandler fetchHandler(Directory directory) {
        return request -> {
            if (!(directory instanceof FatBtreeDirectory fat)) {
                request.replyError(Status.INVALID_ARGUMENT, request.id() + ": this node runs the " + directory.kind()
                        + " directory; page fetches belong to the " + FatBtreeDirectory.KIND + " directory");
                return;
            }
            PageFetch.Request r = PageFetch.decodeRequest(request.frame().body());
            fat.answer(r.asker(), r.page()).whenComplete((a, e) -> {
                if (e != null) {
                    request.replyError(Status.NODE_UNAVAILABLE, request.id() + ": " + e);
                } else {
                    request.reply(Responses.bytesResult(PageFetch.encodeAnswer(a)));
                }
            });
        };
    }
}
