package org.autodisk.node.wire;

import org.autodisk.core.protocol.BodyReader;
import org.autodisk.core.protocol.BodyWriter;
import org.autodisk.core.protocol.ProtocolException;
import org.autodisk.core.protocol.Status;

/**
 * MIGRATION_READ body: a migration's target asks the source for the next chunk of the moving range's snapshot.
 *
 * @param migrationId the migration (the source checks it is the source and the caller its target)
 * @param from        the first key wanted (inclusive)
 * @param byteBudget  the most bytes the chunk should carry (one stream always goes, however large)
 * @param fresh       open a new snapshot (the copy starts or resumes) and answer the range's ledger positions in it
 */
public record MigrationReadRequest(long migrationId, byte[] from, int byteBudget, boolean fresh) {

    /**
     * Encodes the body.
     *
     * @return body bytes
     */
    public byte[] encode() {
        return new BodyWriter(8 + 2 + from.length + 4 + 1).i64(migrationId).shortBytes(from).i32(byteBudget)
                .u8(fresh ? 1 : 0).toBytes();
    }

    /**
     * Decodes a body.
     *
     * @param body body bytes
     * @return the request
     * @throws ProtocolException MALFORMED, naming the field that is wrong
     */
    public static MigrationReadRequest decode(byte[] body) {
        BodyReader r = new BodyReader(body);
        long id = r.i64("migration id");
        byte[] from = r.shortBytes("from key");
        int budget = r.i32("byte budget");
        int flags = r.u8("flags");
        r.expectEnd("MIGRATION_READ");
        if (id < 1 || budget < 1 || flags > 1) {
            throw new ProtocolException(Status.MALFORMED, "MIGRATION_READ needs a migration id >= 1 (got " + id
                    + "), a byte budget >= 1 (got " + budget + ") and flags 0 or 1 (got " + flags + ")");
        }
        return new MigrationReadRequest(id, from, budget, flags == 1);
    }
}
