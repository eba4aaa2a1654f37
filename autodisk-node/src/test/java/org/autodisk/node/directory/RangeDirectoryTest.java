package org.autodisk.node.directory;

/** The range-partitioned directory against the directory contract. */
class RangeDirectoryTest extends DirectoryContract {

    @Override
    Directory create(String selfId) {
        return Directory.range(selfId);
    }
}
