package org.autodisk.node.store;

class InMemoryStoreTest extends LocalStoreContract {

    @Override
    protected LocalStore open() {
        return LocalStores.inMemory();
    }
}
