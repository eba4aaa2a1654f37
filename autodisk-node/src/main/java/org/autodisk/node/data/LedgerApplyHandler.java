package org.autodisk.node.data;

import java.util.function.LongUnaryOperator;
import org.autodisk.core.protocol.ProtocolException;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.backup.BackupStores;
import org.autodisk.node.meta.LedgerInfo;
import org.autodisk.node.meta.LedgerState;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.Metadata;
import org.autodisk.node.meta.MigrationInfo;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.ops.OperationHandler;
import org.autodisk.node.ops.Request;
import org.autodisk.node.store.LocalStore;
import org.autodisk.node.wire.LedgerApplyRequest;
import org.autodisk.node.wire.PeerResponses;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * LEDGER_APPLY on a data node: applies entries of a ledger to this node's backup copy, in id
 * order and at most once (with the ledger's applied entry, in one atomic write), and answers the copy's applied and
 * durable entry of the ledger. Entries that start past the applied entry + 1 (the copy lost its unflushed part in a
 * crash) are not applied: the answer tells the log node where to resend from, so a copy never counts itself past an
 * entry it did not receive. A question about the node's own store answers how far the owner holds the ledger (the log
 * nodes truncate below what owner and backup hold durably).
 */
final class LedgerApplyHandler implements OperationHandler {

    private static final Logger LOG = LoggerFactory.getLogger(LedgerApplyHandler.class);

    private final String nodeId;
    private final Metadata metadata;
    private final LocalStore own;
    private final BackupStores backups;

    LedgerApplyHandler(String nodeId, Metadata metadata, LocalStore own, BackupStores backups) {
        this.nodeId = nodeId;
        this.metadata = metadata;
        this.own = own;
        this.backups = backups;
    }

    @Override
    public void handle(Request request) {
        LedgerApplyRequest req = LedgerApplyRequest.decode(request.frame().body());
        long id = req.ledgerId();
        if (req.ownStore()) {
            long applied = own.appliedEntry(id);
            long durable = own.durableEntry(id);
            request.reply(PeerResponses.held(applied, durable, metadata.current().version()));
            return;
        }
        LedgerInfo ledger = metadata.current().ledger(id);
        if (ledger == null) {
            throw new ProtocolException(Status.NODE_UNAVAILABLE, "data node " + nodeId + " does not know ledger "
                    + id + " yet (metadata v" + metadata.current().version() + ")");
        }
        LocalStore copy = backups.copy();
        long t0 = System.nanoTime();
        synchronized (copy) {
            long applied = copy.appliedEntry(id);
            MetaState view = metadata.current();
            LedgerInfo before = req.entries().isEmpty() ? null
                    : earlierNotHeld(view, nodeId, ledger, copy::appliedEntry);
            if (!req.entries().isEmpty() && !takes(view, nodeId, ledger)) {
                LOG.debug("{}: entries of ledger {} not applied: this node backs up no range of it, or a backup fill "
                        + "into its copy covers it (metadata v{})", nodeId, id, view.version());
            } else if (before != null) {
                LOG.info("{}: the backup copy holds {} through entry {} only; entries of ledger {} wait for it",
                        nodeId, before, copy.appliedEntry(before.id()), id);
            } else if (!req.entries().isEmpty() && req.firstEntry() <= applied + 1) {
                copy.applyLedger(id, req.entries());
            } else if (!req.entries().isEmpty()) {
                LOG.info("{}: the backup copy holds ledger {} through entry {}; entries from {} wait for those before",
                        nodeId, id, applied, req.firstEntry());
            }
        }
        request.action("backup");
        request.component("store", System.nanoTime() - t0);
        long applied = copy.appliedEntry(id);
        long durable = copy.durableEntry(id);
        request.reply(PeerResponses.held(applied, durable, metadata.current().version()));
    }

    /**
     * Whether the backup copy takes entries of a ledger now: this node backs up a range the ledger overlaps, and no
     * backup fill into this node overlaps it. A fill writes its span from a snapshot and catches it up itself; an
     * entry a log node (whose view still names this node the backup, say) applied beside it would be overwritten by
     * the snapshot's older value while the copy counts it applied.
     *
     * @param s      the metadata
     * @param self   this node
     * @param ledger the ledger whose entries arrived
     * @return whether to apply them
     */
    static boolean takes(MetaState s, String self, LedgerInfo ledger) {
        boolean backs = false;
        for (RangeDescriptor r : s.ranges()) {
            if (!ledger.overlaps(r.low(), r.high())) {
                continue;
            }
            MigrationInfo m = s.migrationOf(r.id());
            if (m != null && m.backup() && m.target().equals(self)) {
                return false;
            }
            backs |= r.backups().contains(self);
        }
        return backs;
    }

    /**
     * The earlier ledger of a range this node backs up that the copy does not hold wholly yet, if any: a range's
     * ledgers are applied in id order, and a copy that lost its unflushed part in a crash may lack the end of one
     * that a log node still believes it holds; entries of a later ledger applied before it would be overwritten by
     * its older values when it is resent.
     *
     * @param s       the metadata
     * @param self    this node
     * @param ledger  the ledger whose entries arrived
     * @param applied how far the copy holds a ledger
     * @return the first such ledger, or {@code null}
     */
    static LedgerInfo earlierNotHeld(MetaState s, String self, LedgerInfo ledger, LongUnaryOperator applied) {
        for (RangeDescriptor r : s.ranges()) {
            if (!r.backups().contains(self) || !ledger.overlaps(r.low(), r.high())) {
                continue;
            }
            for (LedgerInfo l : s.ledgersOf(r)) {
                if (l.id() < ledger.id() && (l.state() != LedgerState.CLOSED
                        || applied.applyAsLong(l.id()) < l.lastEntry())) {
                    return l;
                }
            }
        }
        return null;
    }
}
