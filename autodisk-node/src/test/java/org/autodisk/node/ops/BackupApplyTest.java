package org.autodisk.node.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.autodisk.core.protocol.Frame;
import org.autodisk.node.InMemoryCluster;
import org.autodisk.node.wire.BackupApplyRequest;
import org.autodisk.node.wire.LogBatch;
import org.autodisk.node.wire.LogRecord;
import org.autodisk.node.wire.PeerOp;
import org.autodisk.node.wire.PeerResponses;
import org.junit.jupiter.api.Test;

/** BACKUP_APPLY: a page is applied only when it continues the copy; the answer says where the copy is. */
class BackupApplyTest {

    private static long[] apply(InMemoryCluster c, long from, long to, long spanEnd) {
        List<LogRecord> records = new ArrayList<>();
        for (long lsn = from; lsn <= to; lsn++) {
            byte[] key = ("k" + lsn).getBytes(StandardCharsets.UTF_8);
            records.add(new LogRecord(0, 1, lsn, LogRecord.PUT, key, key));
        }
        byte[] body = new BackupApplyRequest(from, new LogBatch("d1", records, spanEnd)).encode();
        Frame resp = c.call(1, PeerOp.BACKUP_APPLY.request(body), Caller.NODE).join();
        return PeerResponses.parseLsnPair(resp.body());
    }

    @Test
    void aPageThatDoesNotContinueTheCopyIsNotAppliedAndTheAnswerSaysWhereToResendFrom() throws Exception {
        try (InMemoryCluster c = new InMemoryCluster(2, 1, Map.of("wal.catch-up-threshold", 1_000_000_000))) {
            assertThat(apply(c, 1, 3, 3)).containsExactly(3, 3);
            assertThat(apply(c, 10, 12, 12)).as("a gap: LSNs 4..9 missing").containsExactly(3, 3);
            assertThat(c.node(1).backups().of("d1").get("k10".getBytes(StandardCharsets.UTF_8))).isNull();
            assertThat(apply(c, 2, 5, 6)).as("overlapping: 2 and 3 are skipped, 6 has no record here")
                    .containsExactly(6, 6);
            assertThat(c.node(1).backups().of("d1").count()).isEqualTo(5);
            assertThat(apply(c, 0, -1, 0)).as("a probe").containsExactly(6, 6);
        }
    }
}
