package org.autodisk.node.backup;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.autodisk.node.meta.LedgerInfo;
import org.autodisk.node.meta.LedgerState;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.Metadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes closed ledgers that nobody needs any more from the metadata: once the ledger's owner and the backups of its
 * span hold all of it durably (as the truncation found), no recovery, replay or catch-up reads it again. The first
 * log node of the ledger's last fragment proposes it, once (the first to commit wins; so one that is down does not
 * keep it); a refused or failed proposal is made again later.
 */
final class LedgerDeletions {

    private static final Logger LOG = LoggerFactory.getLogger(LedgerDeletions.class);

    private final String self;
    private final Metadata metadata;
    private final Duration timeout;
    private final Set<Long> proposed = ConcurrentHashMap.newKeySet();

    LedgerDeletions(String self, Metadata metadata, Duration timeout) {
        this.self = self;
        this.metadata = metadata;
        this.timeout = timeout;
    }

    /**
     * Proposes to delete a ledger if it is closed and held durably through its last entry.
     *
     * @param l         the ledger
     * @param heldUpTo  the entry through which its owner and the backups of its span hold it durably
     */
    void consider(LedgerInfo l, long heldUpTo) {
        if (l.state() != LedgerState.CLOSED || heldUpTo < l.lastEntry()
                || !l.lastFragment().ensemble().contains(self) || !proposed.add(l.id())) {
            return;
        }
        metadata.submit(new MetaCommand.DeleteLedger(l.id()), timeout).whenComplete((r, e) -> {
            if (e == null && r.applied()) {
                LOG.info("{}: deleted {}: its owner and backups hold its {} entries durably", self, l,
                        l.lastEntry());
            } else {
                proposed.remove(l.id());
                LOG.debug("{}: deleting ledger {} deferred: {}", self, l.id(), e != null ? e.toString()
                        : r.refusal());
            }
        });
    }

    /** Forgets the proposals of ledgers the metadata no longer lists. */
    void forgetGone(MetaState s) {
        proposed.removeIf(id -> s.ledger(id) == null);
    }
}
