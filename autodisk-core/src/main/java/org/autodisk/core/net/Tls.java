package org.autodisk.core.net;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManagerFactory;

/**
 * Builds TLS contexts (JDK provider) from PKCS#12 key and trust stores, such as {@code keytool -genkeypair
 * -storetype PKCS12} makes. A node serves with its key store; clients and nodes that connect trust the
 * certificates of a trust store (or the JDK's default trust when none is given).
 */
public final class Tls {

    private Tls() {
    }

    /**
     * Builds the server side of a node.
     *
     * @param keyStore PKCS#12 file with the node's private key and certificate chain
     * @param password the key store's password (also the key's)
     * @return the context
     * @throws IllegalArgumentException naming the file when it cannot be read or holds no usable key
     */
    public static SslContext server(Path keyStore, char[] password) {
        try {
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(load(keyStore, password), password);
            return SslContextBuilder.forServer(kmf).sslProvider(SslProvider.JDK).build();
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalArgumentException("cannot use TLS key store " + keyStore + ": " + e.getMessage(), e);
        }
    }

    /**
     * Builds the connecting side.
     *
     * @param trustStore     PKCS#12 file with the certificates to trust, or {@code null} for the JDK's default
     * @param password       its password ({@code null} if none)
     * @param verifyHostname whether the certificate must name the host connected to (HTTPS rules)
     * @return the context
     * @throws IllegalArgumentException naming the file when it cannot be read
     */
    public static SslContext client(Path trustStore, char[] password, boolean verifyHostname) {
        try {
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trustStore == null ? null : load(trustStore, password));
            return SslContextBuilder.forClient().sslProvider(SslProvider.JDK).trustManager(tmf)
                    .endpointIdentificationAlgorithm(verifyHostname ? "HTTPS" : null).build();
        } catch (SSLException e) {
            throw new IllegalArgumentException("cannot build a TLS context: " + e.getMessage(), e);
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalArgumentException("cannot use TLS trust store " + trustStore + ": " + e.getMessage(), e);
        }
    }

    private static KeyStore load(Path file, char[] password) throws GeneralSecurityException, IOException {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            ks.load(in, password);
        }
        return ks;
    }
}
