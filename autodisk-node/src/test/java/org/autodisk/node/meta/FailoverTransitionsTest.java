package org.autodisk.node.meta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.autodisk.node.meta.MetaTransitionsTest.assertRefused;
import static org.autodisk.node.meta.MigrationTransitionsTest.applied;
import static org.autodisk.node.meta.MigrationTransitionsTest.created;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Failover in the metadata: a failed owner's range is promoted to its backup (epoch + 1, RECOVERING) by one command
 * that compares on the epoch, so two promotions of one range never both commit; the promoted owner commits that it
 * serves; a failed backup is taken off; bad commands change nothing and say what they found.
 */
class FailoverTransitionsTest {

    private static MetaState failed(MetaState s, String node) {
        return applied(s, new MetaCommand.SetMemberState(node, MemberState.UP, MemberState.FAILED));
    }

    @Test
    void aFailedOwnersRangeGoesToItsBackupAtTheNextEpochAndServesOnceRecovered() {
        MetaState s = created();
        RangeDescriptor r = s.range(0);
        String backup = r.backup();
        assertThat(backup).as("every range of three data nodes has a backup").isNotNull();
        s = failed(s, r.owner());
        s = applied(s, new MetaCommand.Promote(0, r.epoch(), backup, "test"));
        RangeDescriptor promoted = s.range(0);
        assertThat(promoted.owner()).isEqualTo(backup);
        assertThat(promoted.epoch()).isEqualTo(r.epoch() + 1);
        assertThat(promoted.state()).isEqualTo(RangeState.RECOVERING);
        assertThat(promoted.backups()).as("the promoted backup is no backup of its own").doesNotContain(backup);
        assertThat(MetaCodec.read(MetaCodec.write(s), MetaState.class)).as("snapshots keep it").isEqualTo(s);

        assertRefused(s, new MetaCommand.Promote(0, r.epoch(), backup, "twice"), "was expected at epoch "
                + r.epoch());
        assertRefused(s, new MetaCommand.Split(0, promoted.generation(), new byte[] {0x01}), "is not serving");
        assertRefused(s, new MetaCommand.RangeRecovered(0, r.epoch()), "was expected at epoch " + r.epoch());
        s = applied(s, new MetaCommand.RangeRecovered(0, promoted.epoch()));
        assertThat(s.range(0).state()).isEqualTo(RangeState.SERVING);
        assertRefused(s, new MetaCommand.RangeRecovered(0, promoted.epoch()), "is not recovering");
    }

    @Test
    void aPromotionIsRefusedUnlessTheOwnerFailedAndTheNewOwnerIsAnUpBackup() {
        MetaState s = created();
        RangeDescriptor r = s.range(0);
        String backup = r.backup();
        String other = List.of("d1", "d2", "d3").stream().filter(d -> !d.equals(r.owner()) && !d.equals(backup))
                .findFirst().orElseThrow();
        assertRefused(s, new MetaCommand.Promote(0, r.epoch(), backup, "x"), "its owner " + r.owner() + " is up");
        MetaState down = failed(s, r.owner());
        assertRefused(down, new MetaCommand.Promote(9, 1, backup, "x"), "there is no range 9");
        assertRefused(down, new MetaCommand.Promote(0, r.epoch() + 1, backup, "x"), "was expected at epoch");
        assertRefused(down, new MetaCommand.Promote(0, r.epoch(), other, "x"), other + " is not a backup of");
        MetaState bothDown = failed(down, backup);
        assertRefused(bothDown, new MetaCommand.Promote(0, r.epoch(), backup, "x"), backup + " is failed, not up");
    }

    @Test
    void aPromotionEndsACopyUnderWayToAnotherNode() {
        MetaState s = created();
        RangeDescriptor r = s.range(0);
        String other = List.of("d1", "d2", "d3").stream().filter(d -> !d.equals(r.owner()) && !d.equals(r.backup()))
                .findFirst().orElseThrow();
        s = applied(s, new MetaCommand.StartMigration(0, r.epoch(), r.generation(), other, 0, "admin"));
        s = failed(s, r.owner());
        s = applied(s, new MetaCommand.Promote(0, r.epoch(), r.backup(), "x"));
        assertThat(s.migrations()).as("its cutover could never commit").isEmpty();
        assertThat(s.range(0).state()).isEqualTo(RangeState.RECOVERING);
    }

    @Test
    void onlyAFailedBackupIsDropped() {
        MetaState s = created();
        RangeDescriptor r = s.range(0);
        assertRefused(s, new MetaCommand.DropBackup(0, r.backup(), "x"), r.backup() + " is up");
        assertRefused(s, new MetaCommand.DropBackup(0, r.owner(), "x"), r.owner() + " is not a backup of");
        MetaState down = failed(s, r.backup());
        MetaState dropped = applied(down, new MetaCommand.DropBackup(0, r.backup(), "x"));
        assertThat(dropped.range(0).backups()).isEmpty();
        assertThat(dropped.range(0).epoch()).as("the owner stays").isEqualTo(r.epoch());
        assertRefused(dropped, new MetaCommand.DropBackup(0, r.backup(), "x"), "is not a backup of");
    }
}
