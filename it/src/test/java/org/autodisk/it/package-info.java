/** Integration tests that run AutoDisk as separate processes or containers. */
package org.autodisk.it;
