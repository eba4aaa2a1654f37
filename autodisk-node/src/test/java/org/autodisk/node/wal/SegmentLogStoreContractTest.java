package org.autodisk.node.wal;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The contract against segment files small enough that most tests cross segments. */
class SegmentLogStoreContractTest extends LogStoreContract {

    @TempDir
    Path dir;

    @Override
    protected LogStore open() {
        return LogStore.segments(dir, "l1", SegmentOptions.defaults().withSegmentBytes(1024));
    }
}
