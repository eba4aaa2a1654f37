package org.autodisk.bench.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The partition proxy between an opener and an echo server: bytes pass both ways; a cut of one direction holds what
 * goes that way (nothing is refused or lost) until restored, whoever opened the connection; a client that is no node
 * is never cut; and the owner of a loopback socket is found in {@code /proc}.
 */
class LinkProxyTest {

    private ServerSocket echo;
    private LinkProxy proxy;
    /** Which node opened a connection, by its local port: the test plays every node from this one process. */
    private final Map<Integer, String> openers = new ConcurrentHashMap<>();
    private int front;

    @BeforeEach
    void start() throws IOException {
        echo = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().start(this::echoAll);
        proxy = new LinkProxy((port, proxyPort) -> Optional.ofNullable(openers.get(port)));
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            front = probe.getLocalPort();
        }
        proxy.forward("b", front, echo.getLocalPort());
    }

    @AfterEach
    void stop() throws IOException {
        proxy.close();
        echo.close();
    }

    private void echoAll() {
        while (!echo.isClosed()) {
            try {
                Socket s = echo.accept();
                Thread.ofVirtual().start(() -> {
                    try (s) {
                        s.getInputStream().transferTo(s.getOutputStream());
                    } catch (IOException e) {
                        // the test closed it
                    }
                });
            } catch (IOException e) {
                return;
            }
        }
    }

    /** Connects as node {@code id} (null: a client), with a short read timeout to see held bytes. */
    private Socket connect(String id) throws IOException {
        Socket s = new Socket();
        s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        if (id != null) {
            openers.put(s.getLocalPort(), id);
        }
        s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), front));
        s.setSoTimeout(300);
        return s;
    }

    private static void send(Socket s, String text) throws IOException {
        s.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
    }

    private static String receive(Socket s, int length) throws IOException {
        s.setSoTimeout(10_000);
        byte[] b = s.getInputStream().readNBytes(length);
        s.setSoTimeout(300);
        return new String(b, StandardCharsets.UTF_8);
    }

    private static void assertNothingArrives(Socket s) {
        assertThatThrownBy(() -> s.getInputStream().read()).as("held while cut")
                .isInstanceOf(SocketTimeoutException.class);
    }

    /** Sends a text that must not come back until {@code heal} ran, and then must, whole. */
    private static void assertHeldUntil(Socket s, String text, Runnable heal) throws IOException {
        send(s, text);
        assertNothingArrives(s);
        heal.run();
        assertThat(receive(s, text.length())).isEqualTo(text);
    }

    @Test
    void aCutDirectionHoldsItsBytesUntilRestoredAndLosesNone() throws IOException {
        try (Socket a = connect("a")) {
            send(a, "before");
            assertThat(receive(a, 6)).isEqualTo("before");
            proxy.cut("a", "b");
            assertHeldUntil(a, "during", () -> proxy.restore("a", "b"));
        }
    }

    @Test
    void theOtherDirectionIsCutOnTheSameConnection() throws IOException {
        try (Socket a = connect("a")) {
            proxy.cut("b", "a");
            assertHeldUntil(a, "ping", proxy::restoreAll);
        }
    }

    @Test
    void onlyTheCutPairIsHeldAndClientsNeverAre() throws IOException {
        try (Socket a = connect("a"); Socket c = connect("c"); Socket client = connect(null)) {
            proxy.cut("a", "b");
            send(c, "other");
            send(client, "client");
            assertThat(receive(c, 5)).isEqualTo("other");
            assertThat(receive(client, 6)).isEqualTo("client");
        }
    }

    @Test
    void aConnectionOpenedDuringTheCutWaitsForTheHeal() throws IOException {
        proxy.cut("a", "b");
        try (Socket a = connect("a")) {
            assertHeldUntil(a, "late", () -> proxy.restore("a", "b"));
        }
    }

    @Test
    void aConnectionClosedAtEitherEndIsClosedThroughTheProxy() throws IOException {
        Socket a = connect("a");
        send(a, "x");
        assertThat(receive(a, 1)).isEqualTo("x");
        assertThat(proxy.openSockets()).isEqualTo(2);
        a.close();
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> proxy.openSockets() == 0);
    }

    @Test
    void theOwnerOfALoopbackSocketIsFoundInProc() throws IOException {
        assumeThat(SocketOwners.available()).as("Linux /proc").isTrue();
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                Socket s = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
                Socket accepted = server.accept()) {
            long me = ProcessHandle.current().pid();
            assertThat(SocketOwners.pidOf(accepted.getPort(), accepted.getLocalPort(), List.of(me)))
                    .hasValue(me);
            assertThat(SocketOwners.pidOf(accepted.getPort(), accepted.getLocalPort(), List.of(me + 1_000_000)))
                    .as("held by none of these").isEmpty();
            assertThat(SocketOwners.inode(s.getLocalPort(), server.getLocalPort())).isPositive();
        }
    }
}
