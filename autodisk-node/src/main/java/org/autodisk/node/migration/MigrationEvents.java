package org.autodisk.node.migration;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.MigrationInfo;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.rules.MigrationFailed;
import org.autodisk.rules.MigrationFinished;
import org.autodisk.rules.MigrationProgress;
import org.autodisk.rules.MigrationStarted;

/**
 * Raises the rules' migration events on the target node, from the committed metadata it follows: started when a
 * migration to it appears, progress when its phase or copied figures change, and at its end finished (the range is
 * now this node's) or failed (it ended before the cutover). Not thread-safe: called from the migration tick only.
 */
final class MigrationEvents {

    private final String self;
    private final Consumer<Object> rules;
    private final Map<Long, MigrationInfo> seen = new HashMap<>();

    MigrationEvents(String self, Consumer<Object> rules) {
        this.self = self;
        this.rules = rules;
    }

    /**
     * Compares the metadata with what was seen at the last call and raises an event for each change.
     *
     * @param s the committed metadata
     */
    void observe(MetaState s) {
        for (MigrationInfo m : s.migrations()) {
            if (m.target().equals(self)) {
                changed(seen.put(m.id(), m), m);
            }
        }
        seen.values().removeIf(m -> s.migration(m.id()) == null && ended(s, m));
    }

    private void changed(MigrationInfo before, MigrationInfo now) {
        if (before == null) {
            rules.accept(new MigrationStarted(now.id(), now.rangeId(), now.source(), now.target(), now.startedBy()));
        } else if (before.phase() != now.phase() || before.keysCopied() != now.keysCopied()) {
            rules.accept(new MigrationProgress(now.id(), now.rangeId(),
                    now.phase().name().toLowerCase(Locale.ROOT).replace('_', ' '), now.keysCopied(),
                    now.bytesCopied()));
        }
    }

    private boolean ended(MetaState s, MigrationInfo m) {
        RangeDescriptor r = s.range(m.rangeId());
        boolean done = m.backup() ? r != null && r.backups().contains(m.target())
                : r != null && r.owner().equals(m.target()) && r.epoch() > m.fromEpoch();
        if (done) {
            rules.accept(new MigrationFinished(m.id(), m.rangeId(), m.source(), m.target()));
        } else {
            rules.accept(new MigrationFailed(m.id(), m.rangeId(), m.source(), m.target(),
                    m.backup() ? "the backup fill ended before its target became the backup (aborted)"
                            : "ended before the cutover (aborted); the range stays on " + m.source()));
        }
        return true;
    }
}
