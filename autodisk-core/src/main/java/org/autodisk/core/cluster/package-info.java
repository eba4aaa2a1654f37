/** The cluster map as the status operation reports it: nodes, roles, ranges, owners and epochs. */
package org.autodisk.core.cluster;
