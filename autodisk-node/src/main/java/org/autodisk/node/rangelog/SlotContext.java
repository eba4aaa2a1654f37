package org.autodisk.node.rangelog;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import org.autodisk.node.ledger.LedgerPeers;
import org.autodisk.node.ledger.LedgerTimer;
import org.autodisk.node.ledger.WriterSettings;
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
 * @param backups  the node's backup copy, which a promoted range is taken over from
 * @param slow     where a promoted range's copy from the backup copy runs (off the apply and network threads)
 * @param leaseMargin what a new writer waits beyond the old writer's lease, for clock drift and answers in flight
 * @param copies   the migrations' copies into this node's store, stopped before a promoted range is taken over
 * @param openedAt when the log opened (timer nanos): about when this process started
 */
record SlotContext(String self, Metadata metadata, LedgerPeers peers, LedgerTimer timer,
        WriterSettings writer, LocalStore store, ApplyThread apply, LogNodesUp up,
        List<String> logNodes, CutoverLedgers cutovers, Supplier<LocalStore> backups, Executor slow,
        Duration leaseMargin, CopiesInto copies, long openedAt) {

    /** The old writer's lease plus the margin: how long a new owner waits after fencing, at most. */
    Duration leaseBound() {
        return writer().lease().isZero() ? Duration.ZERO : writer().lease().plus(leaseMargin());
    }

    /** The log nodes a new ledger is opened on: the first of them that answer, up to the multiplicity. */
    List<String> ensemble() {
        List<String> up = up().up(logNodes());
        return up.subList(0, Math.min(writer().multiplicity(), up.size()));
    }
}
