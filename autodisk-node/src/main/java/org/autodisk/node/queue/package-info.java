/** The bounded request queue between the network threads and the worker threads. */
package org.autodisk.node.queue;
