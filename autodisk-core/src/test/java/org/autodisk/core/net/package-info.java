/** Tests of the request/response channel the client and the nodes share. */
package org.autodisk.core.net;
