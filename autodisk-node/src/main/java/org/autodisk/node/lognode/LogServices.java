package org.autodisk.node.lognode;

import org.autodisk.node.backup.LedgerCatchUp;
import org.autodisk.node.ledger.LogNodeLedgers;

/**
 * What a log node has besides what every node has.
 *
 * @param ledgers the ledgers it holds, in its journal
 * @param catchUp its catch-up of the data nodes' backup copies from those ledgers
 */
public record LogServices(LogNodeLedgers ledgers, LedgerCatchUp catchUp) {
}
