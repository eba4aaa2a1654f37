package org.autodisk.node.meta;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

/**
 * The ledger part of the metadata's transitions (see {@link MetaTransitions}): open, change the ensemble of,
 * freeze for recovery, close and delete a range's ledgers. Each command names what it expects, so a writer and a
 * recovery that race never both win: an ensemble change needs the ledger open, a recovery freezes it first, the first
 * close fixes its last entry for everyone, and only a closed ledger is deleted.
 */
final class LedgerTransitions {

    private LedgerTransitions() {
    }

    static MetaTransitions.Outcome open(MetaState s, long index, MetaCommand.OpenLedger c) {
        RangeDescriptor r = s.range(c.rangeId());
        String problem = r == null ? "there is no range " + c.rangeId()
                : r.epoch() != c.expectedEpoch() ? "range " + r.id() + " was expected at epoch " + c.expectedEpoch()
                        + " but is at epoch " + r.epoch() + ": " + r
                : !r.owner().equals(c.writer()) ? c.writer() + " does not own " + r
                : ensembleProblem(s, c.ensemble());
        if (problem == null) {
            problem = s.ledgersOf(r).stream().filter(l -> l.state() != LedgerState.CLOSED).findFirst()
                    .map(l -> l + " is not closed: a new writer recovers and closes it first").orElse(null);
        }
        if (problem != null) {
            return refused(s, "opening a ledger refused: " + problem);
        }
        LedgerInfo opened = new LedgerInfo(s.nextLedgerId(), r.id(), r.low(), r.high(), r.epoch(), c.writer(),
                List.of(new LedgerInfo.Fragment(1, c.ensemble())), LedgerState.OPEN, 0);
        List<LedgerInfo> ledgers = new ArrayList<>(s.ledgers());
        ledgers.add(opened);
        return new MetaTransitions.Outcome(s.withLedgers(index, ledgers, s.nextLedgerId() + 1),
                CommandResult.appliedToLedger(index, opened.id()));
    }

    /**
     * Opens a ledger for each half of a split its owner asked for, beside the range's ledger, which is still open:
     * the halves write theirs only once that one is closed and applied (a range's ledgers are read in id order). An
     * ensemble that is not (or no longer) one of log nodes opens none; each half then opens its own.
     */
    static MetaState openForHalves(MetaState s, long index, List<RangeDescriptor> halves, MetaCommand.Split c) {
        if (c.ensemble().isEmpty() || c.opener() == 0 || ensembleProblem(s, c.ensemble()) != null) {
            return s;
        }
        List<LedgerInfo> ledgers = new ArrayList<>(s.ledgers());
        long id = s.nextLedgerId();
        for (RangeDescriptor h : halves) {
            ledgers.add(new LedgerInfo(id++, h.id(), h.low(), h.high(), h.epoch(), h.owner(),
                    List.of(new LedgerInfo.Fragment(1, c.ensemble())), LedgerState.OPEN, 0, c.opener()));
        }
        return s.withLedgers(index, ledgers, id);
    }

    static MetaTransitions.Outcome changeEnsemble(MetaState s, long index, MetaCommand.ChangeEnsemble c) {
        LedgerInfo l = s.ledger(c.ledgerId());
        String problem = l == null ? "there is no ledger " + c.ledgerId()
                : l.state() != LedgerState.OPEN ? l + " is not open"
                : l.fragments().size() != c.expectedFragments() ? l + " has " + l.fragments().size()
                        + " fragments, not the " + c.expectedFragments() + " its writer saw"
                : c.firstEntry() < l.lastFragment().firstEntry() ? "a fragment from entry " + c.firstEntry()
                        + " would start before the last one of " + l
                : ensembleProblem(s, c.ensemble());
        if (problem != null) {
            return refused(s, "ensemble change refused: " + problem);
        }
        return replace(s, index, l, l.withFragment(new LedgerInfo.Fragment(c.firstEntry(), c.ensemble())));
    }

    static MetaTransitions.Outcome recover(MetaState s, long index, MetaCommand.RecoverLedger c) {
        LedgerInfo l = s.ledger(c.ledgerId());
        if (l == null) {
            return refused(s, "recovery refused: there is no ledger " + c.ledgerId());
        }
        if (l.state() == LedgerState.CLOSED) {
            return refused(s, "recovery refused: " + l + " is closed already");
        }
        if (l.state() == LedgerState.IN_RECOVERY) {
            return new MetaTransitions.Outcome(s, CommandResult.appliedToLedger(s.version(), l.id()));
        }
        return replace(s, index, l, l.in(LedgerState.IN_RECOVERY, 0));
    }

    static MetaTransitions.Outcome close(MetaState s, long index, MetaCommand.CloseLedger c) {
        LedgerInfo l = s.ledger(c.ledgerId());
        String problem = l == null ? "there is no ledger " + c.ledgerId()
                : l.state() == LedgerState.CLOSED ? l + " is closed already at entry " + l.lastEntry()
                : c.lastEntry() < 0 ? "a last entry cannot be negative" : null;
        if (problem != null) {
            return refused(s, "closing refused: " + problem);
        }
        return replace(s, index, l, l.in(LedgerState.CLOSED, c.lastEntry()));
    }

    static MetaTransitions.Outcome delete(MetaState s, long index, MetaCommand.DeleteLedger c) {
        LedgerInfo l = s.ledger(c.ledgerId());
        String problem = l == null ? "there is no ledger " + c.ledgerId() + " (deleted already?)"
                : l.state() != LedgerState.CLOSED ? l + " is not closed: it may still be written or recovered" : null;
        if (problem != null) {
            return refused(s, "deleting a ledger refused: " + problem);
        }
        List<LedgerInfo> ledgers = new ArrayList<>(s.ledgers());
        ledgers.remove(l);
        return new MetaTransitions.Outcome(s.withLedgers(index, ledgers, s.nextLedgerId()),
                CommandResult.appliedToLedger(index, l.id()));
    }

    private static MetaTransitions.Outcome replace(MetaState s, long index, LedgerInfo old, LedgerInfo next) {
        List<LedgerInfo> ledgers = new ArrayList<>(s.ledgers());
        ledgers.set(ledgers.indexOf(old), next);
        return new MetaTransitions.Outcome(s.withLedgers(index, ledgers, s.nextLedgerId()),
                CommandResult.appliedToLedger(index, next.id()));
    }

    static String ensembleProblem(MetaState s, List<String> ensemble) {
        if (ensemble.isEmpty()) {
            return "an ensemble needs at least one log node";
        }
        if (new HashSet<>(ensemble).size() != ensemble.size()) {
            return "ensemble " + ensemble + " names a log node twice";
        }
        for (String id : ensemble) {
            Member m = s.member(id);
            if (m == null || !"log".equals(m.role())) {
                return id + " is not a log node of the cluster";
            }
        }
        return null;
    }

    private static MetaTransitions.Outcome refused(MetaState s, String why) {
        return new MetaTransitions.Outcome(s, CommandResult.refused(s.version(), why));
    }
}
