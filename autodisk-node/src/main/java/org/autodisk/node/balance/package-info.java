/** Balance rounds: the cluster's load gathered as facts, balance.drl evaluated on them, its moves started. */
package org.autodisk.node.balance;
