/** JMH benchmarks of the frame codec and message bodies, run by hand and never by the unit test phase. */
package org.autodisk.core.protocol.jmh;
