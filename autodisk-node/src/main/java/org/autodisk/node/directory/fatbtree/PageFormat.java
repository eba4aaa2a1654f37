package org.autodisk.node.directory.fatbtree;

import java.nio.ByteBuffer;
import org.autodisk.core.protocol.ProtocolException;
import org.autodisk.core.protocol.Status;

/**
 * The format of the Fat-Btree's bodies between data nodes (PAGE_MESSAGE, and PAGE_FETCH's request and answer): their
 * first byte. A node reads only its own format and refuses another with {@code UNSUPPORTED_VERSION} naming both, so a
 * node of a build that writes another layout is told so (and its page messages wait, sent again, until the builds
 * agree) instead of being misread into wrong pages. Raise {@link #CURRENT} with every change of these layouts.
 */
final class PageFormat {

    /** The format this build writes and reads. */
    static final int CURRENT = 1;

    private PageFormat() {
    }

    /**
     * Reads and checks the format byte at the body's start.
     *
     * @param b    the body, at its start
     * @param what names the body in the error, e.g. "a directory page message"
     * @throws ProtocolException UNSUPPORTED_VERSION if the body is of another format
     * @throws java.nio.BufferUnderflowException if the body is empty (the caller says it ends early)
     */
    static void check(ByteBuffer b, String what) {
        int format = b.get() & 0xff;
        if (format != CURRENT) {
            throw new ProtocolException(Status.UNSUPPORTED_VERSION, what + " of format " + format + ": this node "
                    + "reads format " + CURRENT + " only (a node of another build?)");
        }
    }
}
