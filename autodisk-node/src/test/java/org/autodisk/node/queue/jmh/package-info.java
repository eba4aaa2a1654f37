/** JMH benchmarks of the request queue (run with the JMH command in docs/benchmarks.md). */
package org.autodisk.node.queue.jmh;
