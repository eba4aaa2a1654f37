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
        byte[] b = batch.encode();
        return new BodyWriter(b.length + 8).i64(fromLsn).raw(b).toBytes();
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
