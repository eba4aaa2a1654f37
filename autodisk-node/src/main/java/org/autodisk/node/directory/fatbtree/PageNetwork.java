package org.autodisk.node.directory.fatbtree;

/** Carries Fat-Btree messages between data nodes, first in, first out between any two of them. */
interface PageNetwork extends AutoCloseable {

    /**
     * Sends a message; the receiver's {@link FatBtreeNode#receive} gets it.
     *
     * @param from the sender
     * @param to   the receiver
     * @param m    the message
     */
    void send(String from, String to, PageMessage m);

    /** Stops sending (nothing by default). */
    @Override
    default void close() {
    }
}
