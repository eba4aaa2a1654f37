/** Value types shared by AutoDisk nodes and clients: keys, limits and their validation. */
package org.autodisk.core;
