package org.autodisk.node.ledger;

import java.time.Duration;

/**
 * Multiplicity, deadlines and lease of a writer.
 *
 * @param multiplicity how many log nodes hold each entry when enough are up
 * @param answerTimeout how long a log node may take to answer before it is replaced
 * @param metadataTimeout how long an ensemble change may take to commit
 * @param lease how long a confirmation by every log node of the ensemble keeps the lease ({@code ZERO}: no lease,
 *              the writer counts as leased while it is open)
 */
public record WriterSettings(int multiplicity, Duration answerTimeout, Duration metadataTimeout, Duration lease) {

    /**
     * Settings without a lease.
     *
     * @param multiplicity    how many log nodes hold each entry
     * @param answerTimeout   how long a log node may take to answer
     * @param metadataTimeout how long an ensemble change may take to commit
     */
    public WriterSettings(int multiplicity, Duration answerTimeout, Duration metadataTimeout) {
        this(multiplicity, answerTimeout, metadataTimeout, Duration.ZERO);
    }
}
