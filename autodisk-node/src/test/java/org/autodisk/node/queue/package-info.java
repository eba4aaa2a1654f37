/** Tests of the request queue. */
package org.autodisk.node.queue;
