/** Cluster metadata: members and range descriptors, changed only by commands committed through Apache Ratis. */
package org.autodisk.node.meta;
