package org.autodisk.client;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** Base of the tests that talk to one {@link FakeNode} through one client. */
abstract class FakeNodeTest {

    protected FakeNode node;
    protected AutoDiskClient client;

    /** The fake node's id; tests that check it override this. */
    protected String nodeId() {
        return "node-1";
    }

    /** Client settings beyond the seed; tests that need others override this. */
    protected AutoDiskClient.Builder configure(AutoDiskClient.Builder builder) {
        return builder;
    }

    @BeforeEach
    void startNodeAndClient() {
        node = FakeNode.start(nodeId());
        client = configure(AutoDiskClient.builder().seeds(node.address())).build();
    }

    @AfterEach
    void stopNodeAndClient() {
        client.close();
        node.close();
    }
}
