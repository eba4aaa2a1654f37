package org.autodisk.node.meta;

import java.util.ArrayList;
import java.util.List;
import org.autodisk.core.Keys;

/**
 * The cluster metadata at one point of its history: members, one descriptor per range in key order, the directory
 * kind, and what the cluster was created with. Immutable; every committed change makes a new one.
 *
 * @param version     the log index of the last command that changed it (0: nothing yet)
 * @param directory   the directory kind chosen at creation ({@code range}), {@code null} before bootstrap
 * @param members     every member
 * @param ranges      every range, in key order, tiling the key space (empty before bootstrap)
 * @param nextRangeId the id the next new range gets
 * @param created     what the cluster was created from, {@code null} before bootstrap
 * @param ledgers     the ledgers of the ranges' logs still kept, by id
 * @param nextLedgerId the id the next ledger gets (from 1)
 * @param migrations  the migrations under way, by id
 * @param nextMigrationId the id the next migration gets (from 1)
 */
public record MetaState(long version, String directory, List<Member> members, List<RangeDescriptor> ranges,
        int nextRangeId, Creation created, List<LedgerInfo> ledgers, long nextLedgerId,
        List<MigrationInfo> migrations, long nextMigrationId) {

    /** The state of a cluster that was never bootstrapped. */
    public static final MetaState EMPTY = new MetaState(0, null, List.of(), List.of(), 0, null);

    /** Copies the lists; a state from before ledgers or migrations existed has none. */
    public MetaState {
        members = List.copyOf(members);
        ranges = List.copyOf(ranges);
        ledgers = ledgers == null ? List.of() : List.copyOf(ledgers);
        nextLedgerId = Math.max(1, nextLedgerId);
        migrations = migrations == null ? List.of() : List.copyOf(migrations);
        nextMigrationId = Math.max(1, nextMigrationId);
    }

    /**
     * A state without ledgers.
     *
     * @param version     the version
     * @param directory   the directory kind
     * @param members     the members
     * @param ranges      the ranges
     * @param nextRangeId the next range id
     * @param created     the creation
     */
    public MetaState(long version, String directory, List<Member> members, List<RangeDescriptor> ranges,
            int nextRangeId, Creation created) {
        this(version, directory, members, ranges, nextRangeId, created, List.of(), 1, List.of(), 1);
    }

    /**
     * Returns this state at a new version with other ranges.
     *
     * @param index       the new version
     * @param nextRanges  the ranges
     * @param nextRangeId the next range id
     * @return the state
     */
    MetaState withRanges(long index, List<RangeDescriptor> nextRanges, int nextRangeId) {
        return new MetaState(index, directory, members, nextRanges, nextRangeId, created, ledgers, nextLedgerId,
                migrations, nextMigrationId);
    }

    /**
     * Returns this state at a new version with other members.
     *
     * @param index       the new version
     * @param nextMembers the members
     * @return the state
     */
    MetaState withMembers(long index, List<Member> nextMembers) {
        return new MetaState(index, directory, nextMembers, ranges, nextRangeId, created, ledgers, nextLedgerId,
                migrations, nextMigrationId);
    }

    /**
     * Returns this state at a new version with other ledgers.
     *
     * @param index        the new version
     * @param nextLedgers  the ledgers
     * @param nextLedgerId the next ledger id
     * @return the state
     */
    MetaState withLedgers(long index, List<LedgerInfo> nextLedgers, long nextLedgerId) {
        return new MetaState(index, directory, members, ranges, nextRangeId, created, nextLedgers, nextLedgerId,
                migrations, nextMigrationId);
    }

    /**
     * Returns this state at a new version with other ranges and migrations (a migration's start and cutover change
     * both in one command).
     *
     * @param index           the new version
     * @param nextRanges      the ranges
     * @param nextMigrations  the migrations under way
     * @param nextMigrationId the next migration id
     * @return the state
     */
    MetaState withMigrations(long index, List<RangeDescriptor> nextRanges, List<MigrationInfo> nextMigrations,
            long nextMigrationId) {
        return new MetaState(index, directory, members, nextRanges, nextRangeId, created, ledgers, nextLedgerId,
                nextMigrations, nextMigrationId);
    }

    /**
     * Finds a migration under way.
     *
     * @param id the migration id
     * @return the migration, or {@code null} (never started, or ended)
     */
    public MigrationInfo migration(long id) {
        return migrations.stream().filter(m -> m.id() == id).findFirst().orElse(null);
    }

    /**
     * Finds the migration under way of a range.
     *
     * @param rangeId the range
     * @return the migration, or {@code null} if the range is not moving
     */
    public MigrationInfo migrationOf(int rangeId) {
        return migrations.stream().filter(m -> m.rangeId() == rangeId).findFirst().orElse(null);
    }

    /**
     * Finds a ledger.
     *
     * @param id the ledger id
     * @return the ledger, or {@code null} (never opened, or deleted)
     */
    public LedgerInfo ledger(long id) {
        for (LedgerInfo l : ledgers) {
            if (l.id() == id) {
                return l;
            }
        }
        return null;
    }

    /**
     * Returns the ledgers that may hold changes of a range's keys, oldest first: its own, and those of the range it
     * was split from.
     *
     * @param range the range
     * @return the ledgers by id
     */
    public List<LedgerInfo> ledgersOf(RangeDescriptor range) {
        return ledgers.stream().filter(l -> l.overlaps(range.low(), range.high())).toList();
    }

    /**
     * The configuration a cluster was created from, kept to tell a later configuration that disagrees.
     *
     * @param dataNodes   the data nodes in configuration order
     * @param splitPoints the initial split points, hex (empty: the even split)
     * @param fanout      the Fat-Btree's {@code directory.fanout}, which every node runs; 0 under the range map, and in
     *                    a cluster created before the fanout was recorded
     */
    public record Creation(List<String> dataNodes, List<String> splitPoints, int fanout) {

        /** Copies the lists. */
        public Creation {
            dataNodes = List.copyOf(dataNodes);
            splitPoints = List.copyOf(splitPoints);
        }

        /**
         * A creation without a recorded fanout (the range map).
         *
         * @param dataNodes   the data nodes in configuration order
         * @param splitPoints the initial split points, hex
         */
        public Creation(List<String> dataNodes, List<String> splitPoints) {
            this(dataNodes, splitPoints, 0);
        }
    }

    /**
     * Returns the data nodes in a stable order: those the cluster was created with, then those that joined, in the
     * order they joined (members are never removed, so a node's position never changes).
     *
     * @return the data nodes; none before the bootstrap
     */
    public List<String> dataNodePositions() {
        List<String> out = new ArrayList<>(created == null ? List.of() : created.dataNodes());
        members.stream().filter(m -> "data".equals(m.role()) && !out.contains(m.id())).forEach(m -> out.add(m.id()));
        return out;
    }

    /**
     * Tells whether the cluster was created.
     *
     * @return true once a bootstrap committed
     */
    public boolean bootstrapped() {
        return created != null;
    }

    /**
     * Finds a range by id.
     *
     * @param id the range id
     * @return the range, or {@code null}
     */
    public RangeDescriptor range(int id) {
        for (RangeDescriptor r : ranges) {
            if (r.id() == id) {
                return r;
            }
        }
        return null;
    }

    /**
     * Finds the range that holds a key.
     *
     * @param key the key
     * @return its range
     * @throws IllegalStateException before bootstrap
     */
    public RangeDescriptor rangeOf(byte[] key) {
        if (ranges.isEmpty()) {
            throw new IllegalStateException("the cluster metadata is not bootstrapped yet");
        }
        int lo = 0;
        int hi = ranges.size() - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (Keys.compare(ranges.get(mid).low(), key) <= 0) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return ranges.get(lo);
    }

    /**
     * Finds a member.
     *
     * @param id the node id
     * @return the member, or {@code null}
     */
    public Member member(String id) {
        for (Member m : members) {
            if (m.id().equals(id)) {
                return m;
            }
        }
        return null;
    }
}
