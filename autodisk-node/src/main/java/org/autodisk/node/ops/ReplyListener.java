package org.autodisk.node.ops;

/** Told once per request when its reply is sent. */
@FunctionalInterface
interface ReplyListener {

    /**
     * Called as the reply goes out.
     *
     * @param serviceNanos time from arrival to reply
     * @param error        whether the reply is an error
     */
    void replied(long serviceNanos, boolean error);
}
