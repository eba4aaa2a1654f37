/** Tests of the cluster metadata: its transitions, its Ratis replicas, its in-memory group. */
package org.autodisk.node.meta;
