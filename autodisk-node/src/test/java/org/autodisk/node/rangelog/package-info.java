/** Tests of the owners' range logs as ledgers, in in-process clusters. */
package org.autodisk.node.rangelog;
