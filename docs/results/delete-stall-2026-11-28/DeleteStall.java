import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.autodisk.core.protocol.KeyValue;
import org.autodisk.node.store.LocalStore;
import org.autodisk.node.store.LocalStores;
import org.autodisk.node.wire.LogRecord;

/**
 * How long a ledger apply waits while a large span is deleted: a RocksDB store (no WAL, as a data node with log
 * nodes) holds N streams of 1 KB; one thread applies a ledger entry every millisecond while another deletes the whole
 * span. Prints, per round, the deletion's time and the applies' waits (p50, p99, max). Run from the repository's root
 * after a build (see README.md beside it).
 */
public class DeleteStall {

    private static volatile boolean stop;

    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        for (int round = 0; round < 3; round++) {
            LocalStore s = LocalStores.rocksDbWithoutWal(Files.createTempDirectory("delete-stall"));
            fill(s, n);
            List<Long> waits = Collections.synchronizedList(new ArrayList<>());
            stop = false;
            Thread applier = Thread.ofPlatform().start(() -> apply(s, waits));
            Thread.sleep(200); // applies before the deletion, as a baseline
            long t0 = System.nanoTime();
            long deleted = s.deleteRange("a-".getBytes(), "a.".getBytes());
            long took = System.nanoTime() - t0;
            Thread.sleep(100); // and after it
            stop = true;
            applier.join();
            List<Long> sorted = new ArrayList<>(waits);
            Collections.sort(sorted);
            System.out.printf("deleted %d in %d ms; %d applies waited p50 %.2f ms, p99 %.2f ms, max %.2f ms%n",
                    deleted, took / 1_000_000, sorted.size(), sorted.get(sorted.size() / 2) / 1e6,
                    sorted.get((int) (sorted.size() * 0.99)) / 1e6, sorted.get(sorted.size() - 1) / 1e6);
            s.close();
        }
    }

    private static void fill(LocalStore s, int n) {
        Random r = new Random(1);
        List<KeyValue> batch = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            byte[] v = new byte[1000];
            r.nextBytes(v);
            batch.add(new KeyValue(String.format("a-%08d", i).getBytes(), v));
            if (batch.size() == 5000) {
                s.ingest(batch, Map.of());
                batch.clear();
            }
        }
        s.makeDurable();
    }

    private static void apply(LocalStore s, List<Long> waits) {
        for (long lsn = 1; !stop; lsn++) {
            long t = System.nanoTime();
            s.applyLedger(7, List.of(new LogRecord(0, 1, lsn, LogRecord.PUT, ("z-" + lsn).getBytes(), new byte[100])));
            waits.add(System.nanoTime() - t);
            try {
                Thread.sleep(1); // an apply every millisecond
            } catch (InterruptedException e) {
                return;
            }
        }
    }
}
