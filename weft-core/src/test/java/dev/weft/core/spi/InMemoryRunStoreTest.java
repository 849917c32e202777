package dev.weft.core.spi;

import dev.weft.core.store.InMemoryRunStore;

final class InMemoryRunStoreTest extends RunStoreContract {
    @Override
    protected RunStore newStore() {
        return InMemoryRunStore.create();
    }
}
