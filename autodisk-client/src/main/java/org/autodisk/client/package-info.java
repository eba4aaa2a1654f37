/** The AutoDisk Java client: blocking and asynchronous access to streams, batches, traverse and cluster status. */
package org.autodisk.client;
