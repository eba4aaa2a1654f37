package org.autodisk.bench.faults;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiFunction;

/**
 * A fault-injecting TCP proxy in front of every node of a local cluster: each node's address (and its metadata port)
 * is a port of this proxy, which forwards to the port the node listens on, so every connection between two nodes
 * passes through it and is known by the node that opened it and the node it goes to. {@link #cut} holds the bytes one
 * node sends another, on every connection between them whichever opened it, until {@link #restore}: a real
 * partition's effect on TCP, where nothing is refused or reset, requests simply go unanswered, and what was sent
 * arrives once the network heals (unless a side closed its connection first). Cutting both directions partitions a
 * pair; cutting every pair of a node isolates it; one direction alone is an asymmetric partition. Clients (any process
 * that is not a node of the cluster) are never cut.
 */
final class LinkProxy implements AutoCloseable {

    private static final int BUFFER = 64 * 1024;

    private final BiFunction<Integer, Integer, Optional<String>> opener;
    /** Guards {@link #cut}; a condition rather than a monitor, so that held pumps never pin a carrier thread. */
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition restored = lock.newCondition();
    private final Set<List<String>> cut = new HashSet<>();
    private final List<ServerSocket> servers = new CopyOnWriteArrayList<>();
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private volatile boolean closed;

    /**
     * A proxy that forwards nothing yet.
     *
     * @param opener finds the node that opened a connection from its two ports (the opener's, the proxy's): see
     *               {@link SocketOwners#node}; empty for a client
     */
    LinkProxy(BiFunction<Integer, Integer, Optional<String>> opener) {
        this.opener = opener;
    }

    /**
     * Forwards the connections made to one port on 127.0.0.1 to another, as the way to a node.
     *
     * @param node  the node the connections go to
     * @param front the port connections are made to (the node's address, or its metadata port)
     * @param back  the port the node listens on
     * @throws IOException if the front port cannot be bound
     */
    void forward(String node, int front, int back) throws IOException {
        ServerSocket server = new ServerSocket();
        servers.add(server);
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), front));
        threads.submit(() -> accept(server, node, back));
    }

    /**
     * Holds every byte node {@code from} sends node {@code to} from now on.
     *
     * @param from the sending node
     * @param to   the receiving node
     */
    void cut(String from, String to) {
        lock.lock();
        try {
            cut.add(List.of(from, to));
        } finally {
            lock.unlock();
        }
    }

    /**
     * Lets what node {@code from} sends node {@code to} pass again, what was held first.
     *
     * @param from the sending node
     * @param to   the receiving node
     */
    void restore(String from, String to) {
        lock.lock();
        try {
            cut.remove(List.of(from, to));
            restored.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Lets everything pass again. */
    void restoreAll() {
        lock.lock();
        try {
            cut.clear();
            restored.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void accept(ServerSocket server, String node, int back) {
        while (!closed && !server.isClosed()) {
            Socket in;
            try {
                in = server.accept();
            } catch (IOException e) {
                if (!closed && !server.isClosed()) {
                    System.err.println("faults: the proxy to " + node + " could not accept (trying again): " + e);
                    pause();
                }
                continue;
            }
            sockets.add(in);
            try {
                threads.submit(() -> open(in, node, back));
            } catch (RejectedExecutionException e) {
                closeBoth(in, in);
            }
        }
    }

    private static void pause() {
        try {
            TimeUnit.MILLISECONDS.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Connects an accepted connection through to its node, pumps both ways until both ended, and closes it. */
    private void open(Socket in, String node, int back) {
        Socket out = new Socket();
        sockets.add(out);
        try {
            String from = opener.apply(in.getPort(), in.getLocalPort()).orElse(null);
            in.setTcpNoDelay(true);
            out.setTcpNoDelay(true);
            out.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), back));
            Future<?> forth = threads.submit(() -> pump(in, out, from, node));
            pump(out, in, node, from);
            forth.get();
        } catch (IOException | RuntimeException | ExecutionException e) {
            // closing both below
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            closeBoth(in, out);
        }
    }

    /** Copies what {@code source} receives to {@code sink}, held while the link from {@code a} to {@code b} is cut. */
    private void pump(Socket source, Socket sink, String a, String b) {
        byte[] buffer = new byte[BUFFER];
        try {
            InputStream is = source.getInputStream();
            OutputStream os = sink.getOutputStream();
            for (int n = is.read(buffer); ; n = is.read(buffer)) {
                awaitOpen(a, b);
                if (n < 0) {
                    sink.shutdownOutput();
                    return;
                }
                os.write(buffer, 0, n);
            }
        } catch (IOException | InterruptedException e) {
            closeBoth(source, sink);
        }
    }

    private void awaitOpen(String a, String b) throws InterruptedException {
        if (a == null || b == null) {
            return;
        }
        List<String> link = List.of(a, b);
        lock.lock();
        try {
            while (!closed && cut.contains(link)) {
                restored.await();
            }
        } finally {
            lock.unlock();
        }
    }

    private void closeBoth(Socket x, Socket y) {
        for (Socket s : List.of(x, y)) {
            try {
                s.close();
            } catch (IOException e) {
                // closing anyway
            }
            sockets.remove(s);
        }
    }

    /**
     * Counts the sockets open through this proxy, two per connection (the one accepted, the one to the node).
     *
     * @return the open sockets
     */
    int openSockets() {
        return sockets.size();
    }

    /** Stops accepting, closes every connection and lets every held byte go. */
    @Override
    public void close() {
        closed = true;
        for (ServerSocket s : servers) {
            try {
                s.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
        restoreAll();
        for (Socket s : List.copyOf(sockets)) {
            try {
                s.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
        threads.shutdownNow();
    }
}
