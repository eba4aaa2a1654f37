package org.autodisk.node.backup;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.ledger.LedgerEntry;
import org.autodisk.node.ledger.LedgerPeers;
import org.autodisk.node.ledger.LedgerReader;
import org.autodisk.node.ledger.LogNodeLedgers;
import org.autodisk.node.meta.LedgerInfo;
import org.autodisk.node.peer.PeerChannel;
import org.autodisk.node.wire.LedgerApplyRequest;
import org.autodisk.node.wire.PeerOp;
import org.autodisk.node.wire.PeerResponses;

/**
 * The catch-up's view of the data nodes' copies of ledgers: LEDGER_APPLY to a backup (entries, or a question), with
 * the last answer of each remembered; and pages of a ledger's entries, read from this log node when it holds them,
 * else from the ensemble of their fragment. Called from the catch-up thread only, so it waits (bounded) for answers.
 */
public final class LedgerCopies {

    /**
     * How far a store holds a ledger: applied, and durable (survives a crash of the data node), and the metadata
     * version its node had applied when it answered (0: never asked).
     */
    public record Held(long applied, long durable, long version) {
    }

    private static final long TIMEOUT_MS = 5000;
    private static final int MAX_ENTRIES = 2000;
    private static final long MAX_BYTES = 1 << 20;
    private static final int READ_STEP = 16;

    private final String self;
    private final PeerChannel peers;
    private final LogNodeLedgers own;
    private final LedgerReader reader;
    private final Map<String, Held> backups = new ConcurrentHashMap<>();
    private final Map<String, Held> owners = new ConcurrentHashMap<>();

    /**
     * Creates the view.
     *
     * @param self  this log node
     * @param peers the peer channel
     * @param own   this log node's ledgers
     */
    public LedgerCopies(String self, PeerChannel peers, LogNodeLedgers own) {
        this.self = self;
        this.peers = peers;
        this.own = own;
        this.reader = new LedgerReader(LedgerPeers.over(peers));
    }

    /** How far a backup holds a ledger: as it last answered, or asked now if it never did. */
    Held backupOrAsk(String node, long ledger) {
        Held h = backups.get(node + "/" + ledger);
        return h != null ? h : ask(node, ledger, false);
    }

    /**
     * Forgets what a backup answered about every ledger, so that each is asked again: it held less of one than it
     * answered before (it lost its unflushed part in a crash), and may of others too.
     */
    void forgetBackup(String node) {
        backups.keySet().removeIf(k -> k.startsWith(node + "/"));
    }

    Held backup(String node, long ledger) {
        return backups.getOrDefault(node + "/" + ledger, new Held(0, 0, 0));
    }

    Held owner(String node, long ledger) {
        return owners.getOrDefault(node + "/" + ledger, new Held(0, 0, 0));
    }

    /** Asks a data node how far its backup copy (or its own store) holds a ledger. */
    Held ask(String node, long ledger, boolean ownStore) {
        Held h = send(node, LedgerApplyRequest.question(ledger, ownStore));
        (ownStore ? owners : backups).put(node + "/" + ledger, h);
        return h;
    }

    /** Sends entries to a backup; returns how far it then holds the ledger. */
    Held apply(String node, long ledger, long first, List<LedgerEntry> entries) {
        Held h = send(node, new LedgerApplyRequest(ledger, first, false,
                entries.stream().map(LedgerEntry::toRecord).toList()));
        backups.put(node + "/" + ledger, h);
        return h;
    }

    private Held send(String node, LedgerApplyRequest request) {
        try {
            Frame resp = peers.send(node, PeerOp.LEDGER_APPLY.request(request.encode()))
                    .get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            if (Responses.status(resp.body()) != Status.OK) {
                throw new IllegalStateException(node + ": " + Responses.errorMessage(resp.body()));
            }
            long[] held = PeerResponses.parseHeld(resp.body());
            return new Held(held[0], held[1], held[2]);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(node + ": interrupted", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException(node + " does not answer: " + e, e);
        }
    }

    /**
     * Reads the next page of a ledger: at most 2000 entries or about 1 MiB (at least one entry).
     *
     * @param l    the ledger
     * @param from the first entry
     * @param to   the last entry wanted
     * @return consecutive entries from {@code from}
     */
    List<LedgerEntry> page(LedgerInfo l, long from, long to) {
        List<LedgerEntry> out = new ArrayList<>();
        long bytes = 0;
        long next = from;
        while (next <= to && out.size() < MAX_ENTRIES && (out.isEmpty() || bytes < MAX_BYTES)) {
            int n = (int) Math.min(READ_STEP, to - next + 1);
            List<LedgerEntry> step = read(l, next, n);
            if (step.isEmpty()) {
                break;
            }
            for (LedgerEntry e : step) {
                out.add(e);
                bytes += e.key().length + e.value().length;
            }
            next += step.size();
        }
        if (out.isEmpty()) {
            throw new IllegalStateException("entry " + from + " of ledger " + l.id() + " is not readable now");
        }
        return out;
    }

    /** The last entry of the fragment that holds {@code entry} (the next fragment's first entry - 1). */
    private static long fragmentEnd(LedgerInfo l, long entry) {
        long end = Long.MAX_VALUE;
        for (LedgerInfo.Fragment f : l.fragments()) {
            if (f.firstEntry() > entry) {
                end = Math.min(end, f.firstEntry() - 1);
            }
        }
        return end;
    }

    private List<LedgerEntry> read(LedgerInfo l, long from, int n) {
        if (l.fragmentOf(from).ensemble().contains(self)) {
            List<LedgerEntry> local = own.read(l.id(), from, (int) Math.min(n, fragmentEnd(l, from) - from + 1));
            if (!local.isEmpty()) {
                return local;
            }
        }
        try {
            return reader.read(l, from, from + n - 1).get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        } catch (ExecutionException | TimeoutException e) {
            return List.of();
        }
    }
}
