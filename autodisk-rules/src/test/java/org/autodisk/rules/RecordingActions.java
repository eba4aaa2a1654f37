package org.autodisk.rules;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Node actions that record every call as a line of text. */
final class RecordingActions implements NodeActions {

    final List<String> calls = new CopyOnWriteArrayList<>();
    final List<String> reasons = new CopyOnWriteArrayList<>();
    /** Backup fills, kept apart: facts without a backup ask for one beside what a test looks at. */
    final List<String> fills = new CopyOnWriteArrayList<>();

    @Override
    public void catchUp(String stream) {
        calls.add("catchUp " + stream);
    }

    @Override
    public void alert(String rule, String message) {
        calls.add("alert " + rule + ": " + message);
    }

    @Override
    public void split(int rangeId) {
        calls.add("split " + rangeId);
    }

    @Override
    public void startMigration(int rangeId, String target, String reason) {
        calls.add("migrate " + rangeId + " " + target);
        reasons.add(reason);
    }

    @Override
    public void startBackupFill(int rangeId, String target, String reason) {
        fills.add("fill " + rangeId + " " + target + ": " + reason);
    }

    @Override
    public void startBackupMove(int rangeId, String from, String target, String reason) {
        fills.add("move backup " + rangeId + " " + from + " " + target + ": " + reason);
    }

    @Override
    public void startMigrationOfUpperHalf(int rangeId, String target, String reason) {
        calls.add("migrate upper half " + rangeId + " " + target);
        reasons.add(reason);
    }

    @Override
    public void promote(int rangeId, String reason) {
        calls.add("promote " + rangeId);
    }

    @Override
    public void dropBackup(int rangeId, String nodeId, String reason) {
        calls.add("dropBackup " + rangeId + " " + nodeId);
    }

    @Override
    public void holdFailover(String nodeId, String reason) {
        calls.add("hold " + nodeId + ": " + reason);
    }
}
