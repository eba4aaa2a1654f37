/** Tests of the wire protocol: frame codec, message bodies and trace trailers. */
package org.autodisk.core.protocol;
