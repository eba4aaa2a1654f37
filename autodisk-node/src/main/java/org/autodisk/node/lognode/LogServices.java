package org.autodisk.node.lognode;

import org.autodisk.node.backup.CatchUp;
import org.autodisk.node.backup.LedgerCatchUp;
import org.autodisk.node.ledger.LogNodeLedgers;
import org.autodisk.node.wal.LogStore;

/**
 * What a log node has besides what every node has.
 *
 * @param log     the log it keeps for its data nodes
 * @param catchUp its catch-up of their backup copies
 * @param ledgers the ledgers it holds, in its journal
 * @param ledgerCatchUp its catch-up of backups from ledgers
 */
public record LogServices(LogStore log, CatchUp catchUp, LogNodeLedgers ledgers, LedgerCatchUp ledgerCatchUp) {
}
