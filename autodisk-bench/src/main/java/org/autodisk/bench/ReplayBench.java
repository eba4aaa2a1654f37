package org.autodisk.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.Semaphore;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.autodisk.cli.LocalCluster;
import org.autodisk.client.AutoDiskClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code autodisk bench replay}: how fast a data node replays its log on recovery. One data node and one log
 * node (backup catch-up off, so the log keeps everything); the data node's store is wiped after the inserts, so
 * at restart it replays the whole log; the rate is the one the node itself logs.
 */
@Command(name = "replay", footer = "  autodisk bench replay --records 1000000",
        defaultValueProvider = BenchOptions.PortDefault.class,
        description = "Recovery replay rate of a data node from its log node.")
final class ReplayBench implements Callable<Integer> {

    private static final Pattern REPLAYED = Pattern.compile(
            "replayed (\\d+) records .* in (\\d+) ms \\((\\d+) records/s\\)");

    @Option(names = "--records", defaultValue = "200000", description = "Records to log and replay.")
    int records;

    @Mixin
    BenchOptions.Port port;

    @Mixin
    BenchOptions.ValueSize value;


    @Override
    public Integer call() throws Exception {
        String yaml = "wal.catch-up-threshold: 2000000000\nwal.catch-up-idle-ms: 2000000000\n";
        Path dir = Files.createTempDirectory("autodisk-replay");
        try (LocalCluster c = LocalCluster.start(dir, 1, 1, port.basePort, List.of(), yaml).deleteOnClose()) {
            fill(c.addresses().get(0));
            c.kill(0);
            wipe(c.dir().resolve("data").resolve("d1"));
            System.out.println("store of d1 wiped; restarting it to replay " + records + " records from l1 ...");
            c.restart(0);
            Matcher m = REPLAYED.matcher(Files.readString(c.dir().resolve("d1.log")));
            String last = null;
            while (m.find()) {
                last = m.group(1) + " records in " + m.group(2) + " ms: " + m.group(3) + " records/s";
            }
            System.out.println("replay: " + (last == null ? "(no replay line in d1.log)" : last));
        } finally {
            wipe(dir);
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

    private static void wipe(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
