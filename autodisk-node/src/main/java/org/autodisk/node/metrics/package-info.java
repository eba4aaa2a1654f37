/** Per-node metrics: request counts and queue-wait percentiles, exposed through Micrometer and status. */
package org.autodisk.node.metrics;
