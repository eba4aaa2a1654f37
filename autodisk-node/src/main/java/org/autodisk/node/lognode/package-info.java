/** The log node: its journal of ledgers, the ledger operations it serves and backup catch-up from them. */
package org.autodisk.node.lognode;
