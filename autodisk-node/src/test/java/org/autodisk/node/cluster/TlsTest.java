package org.autodisk.node.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.client.NodeUnavailableException;
import org.autodisk.node.MiniCluster;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With {@code tls.enabled} every client and node connection is TLS: a client that trusts the nodes' self-signed
 * certificate inserts and reads through forwarding; a plain client, or one that does not trust the certificate,
 * cannot connect and is told so.
 */
class TlsTest {

    private static final String PASSWORD = "changeit";

    @TempDir
    static Path dir;

    private static Path keyStore;
    private static Path trustStore;

    @BeforeAll
    static void makeCertificate() throws Exception {
        keyStore = dir.resolve("node.p12");
        trustStore = dir.resolve("trust.p12");
        Path cert = dir.resolve("node.crt");
        keytool("-genkeypair", "-alias", "node", "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2",
                "-dname", "CN=autodisk-test", "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-storetype", "PKCS12",
                "-keystore", keyStore.toString(), "-storepass", PASSWORD, "-keypass", PASSWORD);
        keytool("-exportcert", "-alias", "node", "-keystore", keyStore.toString(), "-storepass", PASSWORD, "-file",
                cert.toString());
        keytool("-importcert", "-noprompt", "-alias", "node", "-file", cert.toString(), "-storetype", "PKCS12",
                "-keystore", trustStore.toString(), "-storepass", PASSWORD);
    }

    private static void keytool(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool")
                .toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("keytool " + args[0] + ": " + out).isZero();
    }

    private static Map<String, Object> tls() {
        return Map.of("tls.enabled", true, "tls.key-store", keyStore.toString(), "tls.key-store-password", PASSWORD,
                "tls.trust-store", trustStore.toString(), "tls.trust-store-password", PASSWORD);
    }

    @Test
    void clientsAndNodesTalkTlsWithATrustedSelfSignedCertificate() {
        try (MiniCluster c = MiniCluster.start(2, null, tls());
                AutoDiskClient client = AutoDiskClient.builder().seeds(c.address(0))
                        .tls(trustStore, PASSWORD).build()) {
            byte[] d2Key = {(byte) 0xF0};
            client.insert(d2Key, new byte[] {42});
            assertThat(c.node(1).store().get(d2Key)).as("forwarded d1 -> d2 over TLS").containsExactly(42);
            assertThat(client.search(d2Key)).hasValue(new byte[] {42});
        }
    }

    @Test
    void aPlainClientOrOneThatDoesNotTrustTheCertificateCannotConnect() {
        try (MiniCluster c = MiniCluster.start(1, null, tls())) {
            assertThatThrownBy(() -> AutoDiskClient.builder().seeds(c.address(0)).build())
                    .isInstanceOf(NodeUnavailableException.class);
            assertThatThrownBy(() -> AutoDiskClient.builder().seeds(c.address(0)).tls(null, null).build())
                    .isInstanceOf(NodeUnavailableException.class)
                    .hasMessageContaining("TLS handshake with node at " + c.address(0) + " failed");
        }
    }
}
