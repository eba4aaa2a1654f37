package org.autodisk.node.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class InMemoryLedgerStoreTest extends LedgerStoreContract {

    @Override
    LedgerStore create() {
        return LedgerStore.inMemory("l1");
    }

    @Test
    void aDiskErrorLeavesNothing() throws Exception {
        InMemoryLedgerStore s = (InMemoryLedgerStore) store();
        s.failWrites(true);
        assertThat(refusal(s.append(7, 1, false, entries(1, 1)))).isEqualTo(LedgerException.Kind.UNAVAILABLE);
        assertThat(refusal(s.fence(7))).isEqualTo(LedgerException.Kind.UNAVAILABLE);
        s.failWrites(false);
        assertThat(s.lastEntry(7)).isZero();
        assertThat(s.fenced(7)).isFalse();
    }
}
