package org.autodisk.node.wire;

import org.autodisk.core.protocol.BodyReader;
import org.autodisk.core.protocol.BodyWriter;

/**
 * BACKUP_APPLY body: a page of a data node's log for one of its backups, and the LSN span the page covers.
 *
 * @param fromLsn the first LSN of the page's span; a backup applies the page only if it holds everything before
 *                it (0: a probe, nothing to apply)
 * @param batch   the records of the span that the backup holds (ranges it backs up), with the span's last LSN
 *                as the batch's LSN
 */
public record BackupApplyRequest(long fromLsn, LogBatch batch) {

    /**
     * Encodes the body.
     *
     * @return body bytes
     */
    public byte[] encode() {
        return batch.writeTo(new BodyWriter(8 + batch.encodedSize()).i64(fromLsn)).toBytes();
    }

    /**
     * Decodes a BACKUP_APPLY body, verifying every record's CRC.
     *
     * @param body body bytes
     * @return the request
     */
    public static BackupApplyRequest decode(byte[] body) {
        long from = new BodyReader(body).i64("from lsn");
        return new BackupApplyRequest(from, LogBatch.decode(body, 8));
    }
}
