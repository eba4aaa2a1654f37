/** Tests of the node's metrics. */
package org.autodisk.node.metrics;
