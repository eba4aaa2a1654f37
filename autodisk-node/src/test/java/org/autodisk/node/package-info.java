/** Node tests and the in-process cluster fixtures. */
package org.autodisk.node;
