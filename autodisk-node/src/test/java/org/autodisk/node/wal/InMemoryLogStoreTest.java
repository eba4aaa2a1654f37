package org.autodisk.node.wal;

class InMemoryLogStoreTest extends LogStoreContract {

    @Override
    protected LogStore open() {
        return LogStore.inMemory();
    }
}
