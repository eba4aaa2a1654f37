package org.autodisk.node.rangelog;

import java.util.List;
import org.autodisk.node.ledger.LedgerPeers;
import org.autodisk.node.ledger.LedgerTimer;
import org.autodisk.node.ledger.LedgerWriter;
import org.autodisk.node.meta.Metadata;
import org.autodisk.node.store.LocalStore;

/**
 * What the ranges' writers of one data node share.
 *
 * @param self     the data node
 * @param metadata the cluster metadata (ledgers are opened, changed and closed there)
 * @param peers    the log nodes
 * @param timer    the wall clock
 * @param writer   multiplicity and deadlines of every writer
 * @param store    the data node's store
 * @param apply    the apply thread
 * @param up       which log nodes answer
 * @param logNodes every log node of the cluster, this data node's own first: ledgers are opened on the first of them
 *                 that answer, and any of them may replace one that fails
 * @param cutovers the ledgers this node's cutovers opened for it
 */
record SlotContext(String self, Metadata metadata, LedgerPeers peers, LedgerTimer timer,
        LedgerWriter.WriterSettings writer, LocalStore store, ApplyThread apply, LogNodesUp up,
        List<String> logNodes, CutoverLedgers cutovers) {

    /** The log nodes a new ledger is opened on: the first of them that answer, up to the multiplicity. */
    List<String> ensemble() {
        List<String> up = up().up(logNodes());
        return up.subList(0, Math.min(writer().multiplicity(), up.size()));
    }
}
