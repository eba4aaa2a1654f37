/** The owner's side of the log as ledgers: one writer per owned range and epoch, recovered and replayed first. */
package org.autodisk.node.rangelog;
