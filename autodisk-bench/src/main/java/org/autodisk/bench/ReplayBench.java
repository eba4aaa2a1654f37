package org.autodisk.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.Semaphore;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.autodisk.cli.LocalCluster;
import org.autodisk.client.AutoDiskClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code autodisk bench replay}: how fast a data node replays its ranges' ledgers on recovery. One data node, its
 * store in memory (so the log nodes keep everything: nothing is durable in it) and one log node; the data node is
 * killed after the inserts, so at restart its range recovers the open ledger and replays it whole; the rate is the
 * one the node itself logs.
 */
@Command(name = "replay", footer = "  autodisk bench replay --records 1000000",
        defaultValueProvider = BenchOptions.PortDefault.class,
        description = "Recovery replay rate of a data node from its log node.")
final class ReplayBench implements Callable<Integer> {

    private static final Pattern REPLAYED = Pattern.compile(
            "range (\\d+): recovery: replayed (\\d+) entries in (\\d+) ms \\((\\d+) entries/s\\)");

    @Option(names = "--records", defaultValue = "200000", description = "Records to log and replay.")
    int records;

    @Mixin
    BenchOptions.Port port;

    @Mixin
    BenchOptions.ValueSize value;


    @Override
    public Integer call() throws Exception {
        String yaml = "store.engine: memory\nwal.catch-up-threshold: 2000000000\nwal.catch-up-idle-ms: 2000000000\n";
        Path dir = Files.createTempDirectory("autodisk-replay");
        try (LocalCluster c = LocalCluster.start(dir, 1, 1, port.basePort, List.of(), yaml).deleteOnClose()) {
            fill(c.addresses().get(0));
            c.kill(0);
            System.out.println("d1 killed (its store is in memory); restarting it to replay " + records
                    + " entries from l1 ...");
            c.restart(0);
            Matcher m = REPLAYED.matcher(Files.readString(c.dir().resolve("d1.log")));
            String last = null;
            while (m.find()) {
                last = "range " + m.group(1) + ": " + m.group(2) + " entries in " + m.group(3) + " ms: " + m.group(4)
                        + " entries/s";
            }
            System.out.println("replay: " + (last == null ? "(no replay line in d1.log)" : last));
        }
        return 0;
    }

    private void fill(String address) throws InterruptedException {
        byte[] value = new byte[this.value.valueBytes];
        Semaphore window = new Semaphore(256);
        try (AutoDiskClient client = AutoDiskClient.builder().seeds(address).build()) {
            for (int i = 0; i < records; i++) {
                window.acquire();
                client.async().insert(String.format("r%09d", i).getBytes(), value)
                        .whenComplete((ok, e) -> window.release());
            }
            window.acquire(256);
        }
    }
}
