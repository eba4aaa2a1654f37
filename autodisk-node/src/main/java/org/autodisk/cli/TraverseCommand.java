package org.autodisk.cli;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.client.StreamEntry;
import org.autodisk.core.Keys;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code autodisk traverse}: prints streams in key order, one {@code key<TAB>value} per line. */
@Command(name = "traverse", footer = "  autodisk traverse --from a --to n --limit 20",
        description = "List streams in key order across all nodes.")
final class TraverseCommand implements Callable<Integer> {

    @Mixin
    SeedsOption seeds;

    @Option(names = "--from", defaultValue = "", description = "First key, inclusive (default: the start).")
    String from;

    @Option(names = "--to", description = "End key, exclusive (default: the end).")
    String to;

    @Option(names = "--limit", defaultValue = "100", description = "At most this many (default: ${DEFAULT-VALUE}).")
    int limit;

    @Override
    public Integer call() {
        byte[] fromKey = from.isEmpty() ? new byte[0] : Keys.parse(from);
        byte[] toKey = to == null ? null : Keys.parse(to);
        if (toKey != null && Keys.compare(fromKey, toKey) >= 0) {
            throw new IllegalArgumentException("--from " + from + " must sort before --to " + to
                    + " (--to is exclusive): nothing lies between them");
        }
        if (limit < 1) {
            throw new IllegalArgumentException("--limit must be at least 1, was " + limit);
        }
        try (AutoDiskClient client = seeds.connect()) {
            int n = 0;
            for (StreamEntry e : client.traverse(fromKey, toKey, limit)) {
                System.out.println(Keys.render(e.key()) + "\t" + new String(e.value(), StandardCharsets.UTF_8));
                n++;
            }
            System.err.println(n + " streams");
            return 0;
        }
    }
}
