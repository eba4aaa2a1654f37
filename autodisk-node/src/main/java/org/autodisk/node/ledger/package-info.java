/** A range's log as a sequence of ledgers (BookKeeper's model): one writer each, fenced and recovered by the next. */
package org.autodisk.node.ledger;
