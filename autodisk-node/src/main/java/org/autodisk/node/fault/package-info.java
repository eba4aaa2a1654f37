/** Fault-injection hooks a fault run turns on in a running node (fault tests only; off unless configured). */
package org.autodisk.node.fault;
