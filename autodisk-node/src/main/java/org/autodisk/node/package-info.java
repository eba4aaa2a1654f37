/** The autonomous-disk node: lifecycle and wiring of server, queue, directory, store and peers. */
package org.autodisk.node;
