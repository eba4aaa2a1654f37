package org.autodisk.node.rules;

import java.util.ArrayList;
import java.util.List;

/**
 * What the failover rules asked for one failed node in one evaluation ({@code failover.drl}): promotions, backups to
 * drop, and holds; the coordinator carries out none of the rest when there is a hold.
 */
public final class FailoverDecision {

    /**
     * A range to promote to its backup.
     *
     * @param rangeId the range
     * @param reason  why, as the rule put it
     */
    public record Promotion(int rangeId, String reason) {
    }

    /**
     * A failed backup to take off a range.
     *
     * @param rangeId the range
     * @param nodeId  the backup
     * @param reason  why, as the rule put it
     */
    public record BackupDrop(int rangeId, String nodeId, String reason) {
    }

    private final List<Promotion> promotions = new ArrayList<>();
    private final List<BackupDrop> drops = new ArrayList<>();
    private final List<String> holds = new ArrayList<>();

    /**
     * Asks for a promotion (what {@code actions.promote} does).
     *
     * @param rangeId the range
     * @param reason  why
     */
    public void promote(int rangeId, String reason) {
        promotions.add(new Promotion(rangeId, reason));
    }

    /**
     * Asks to take a failed backup off a range (what {@code actions.dropBackup} does).
     *
     * @param rangeId the range
     * @param nodeId  the backup
     * @param reason  why
     */
    public void drop(int rangeId, String nodeId, String reason) {
        drops.add(new BackupDrop(rangeId, nodeId, reason));
    }

    /**
     * Holds the failover back (what {@code actions.holdFailover} does).
     *
     * @param reason why
     */
    public void hold(String reason) {
        holds.add(reason);
    }

    /**
     * Returns the promotions asked for (to be carried out only if not {@link #held}).
     *
     * @return the promotions
     */
    public List<Promotion> promotions() {
        return List.copyOf(promotions);
    }

    /**
     * Returns the backups to drop (to be carried out only if not {@link #held}).
     *
     * @return the drops
     */
    public List<BackupDrop> drops() {
        return List.copyOf(drops);
    }

    /**
     * Tells whether a rule held the failover back.
     *
     * @return true if held
     */
    public boolean held() {
        return !holds.isEmpty();
    }

    /**
     * Returns why the failover was held.
     *
     * @return the rules' reasons
     */
    public List<String> holds() {
        return List.copyOf(holds);
    }
}
