package org.autodisk.node.directory.fatbtree;

/** Carries a structure change's page batch from the node carrying it out to a node holding copies. */
interface PageChannel {

    /**
     * Sends a batch; the receiver applies it.
     *
     * @param from  the node carrying out the change
     * @param to    the node holding copies
     * @param batch what it writes there
     */
    void send(String from, String to, PageBatch batch);
}
