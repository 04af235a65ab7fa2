package io.distlock.test.redis;

import static java.nio.charset.StandardCharsets.US_ASCII;

import io.distlock.tck.net.FreePorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Comparator;
import java.util.Date;
import java.util.stream.Stream;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A throwaway certificate authority and the certificates it signed, generated when created and written as PEM files
 * into a private temp directory that {@link #close()} deletes. Nothing of it is ever checked in.
 *
 * <p>The server certificate is valid for {@code 127.0.0.1} and {@code localhost} (subject alternative names), so a
 * client that verifies host names accepts it under either name. The client certificate, if asked for, is what a server
 * with {@code tls-auth-clients yes} wants to see. Every certificate is valid from an hour ago (so clock skew between
 * threads or processes cannot matter) for a day. Keys are EC P-256: generating them takes milliseconds, unlike RSA.
 *
 * <pre>{@code
 * try (TestCertificates certificates = TestCertificates.generate()) {
 *     SSLContext context = certificates.clientSslContext();
 * }
 * }</pre>
 */
public final class TestCertificates implements AutoCloseable {

    private static final String KEY_ALGORITHM = "EC";
    private static final String CURVE = "secp256r1";
    private static final String SIGNATURE_ALGORITHM = "SHA256withECDSA";
    private static final Duration BACKDATING = Duration.ofHours(1);
    private static final Duration VALIDITY = Duration.ofDays(1);
    private static final String LOOPBACK_NAME = "localhost";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Path directory;
    private final X509Certificate ca;
    private final Path caCertificate;
    private final Path serverCertificate;
    private final Path serverPrivateKey;
    private final Issued client;
    private final Path clientCertificate;
    private final Path clientPrivateKey;

    private TestCertificates(Path directory, boolean withClient) throws GeneralSecurityException, IOException {
        this.directory = directory;
        KeyPair caKeys = newKeyPair();
        X500Name caName = new X500Name("CN=distlock test CA " + serialNumber());
        this.ca = selfSigned(caName, caKeys);
        Issued server = issue(caName, caKeys, new X500Name("CN=" + LOOPBACK_NAME), KeyPurposeId.id_kp_serverAuth, true);
        this.caCertificate = writeCertificate("ca.pem", ca);
        this.serverCertificate = writeCertificate("server.pem", server.certificate());
        this.serverPrivateKey = writePrivateKey("server-key.pem", server.keys());
        if (withClient) {
            this.client = issue(
                    caName, caKeys, new X500Name("CN=distlock test client"), KeyPurposeId.id_kp_clientAuth, false);
            this.clientCertificate = writeCertificate("client.pem", client.certificate());
            this.clientPrivateKey = writePrivateKey("client-key.pem", client.keys());
        } else {
            this.client = null;
            this.clientCertificate = null;
            this.clientPrivateKey = null;
        }
    }

    /**
     * Generates a new CA and a server certificate signed by it.
     *
     * @return the certificates; close them to delete their files
     * @throws IllegalStateException if the JDK lacks EC keys or ECDSA signatures
     * @throws UncheckedIOException if the files cannot be written
     */
    public static TestCertificates generate() {
        return create(false);
    }

    /**
     * Generates a new CA, a server certificate and a client certificate, both signed by it, for mutual TLS.
     *
     * @return the certificates; close them to delete their files
     * @throws IllegalStateException if the JDK lacks EC keys or ECDSA signatures
     * @throws UncheckedIOException if the files cannot be written
     */
    public static TestCertificates generateWithClientCertificate() {
        return create(true);
    }

    private static TestCertificates create(boolean withClient) {
        Path directory;
        try {
            // Owner-only permissions on POSIX, as the private keys must not be readable by other users.
            directory = Files.createTempDirectory("distlock-tls-");
        } catch (IOException e) {
            throw new UncheckedIOException("Could not create a temp directory for test certificates", e);
        }
        try {
            return new TestCertificates(directory, withClient);
        } catch (GeneralSecurityException e) {
            delete(directory);
            throw new IllegalStateException("Could not generate test certificates", e);
        } catch (IOException e) {
            delete(directory);
            throw new UncheckedIOException("Could not write test certificates to " + directory, e);
        }
    }

    /**
     * Returns the CA certificate, which clients trust to accept the server (and a server trusts to accept clients).
     *
     * @return a PEM file with one {@code CERTIFICATE}
     */
    public Path caCertificate() {
        return caCertificate;
    }

    /**
     * Returns the server certificate, for {@code 127.0.0.1} and {@code localhost}.
     *
     * @return a PEM file with one {@code CERTIFICATE}
     */
    public Path serverCertificate() {
        return serverCertificate;
    }

    /**
     * Returns the server certificate's private key.
     *
     * @return a PEM file with one unencrypted PKCS#8 {@code PRIVATE KEY}
     */
    public Path serverPrivateKey() {
        return serverPrivateKey;
    }

    /**
     * Tells whether a client certificate was generated.
     *
     * @return true if created by {@link #generateWithClientCertificate()}
     */
    public boolean hasClientCertificate() {
        return client != null;
    }

    /**
     * Returns the client certificate.
     *
     * @return a PEM file with one {@code CERTIFICATE}
     * @throws IllegalStateException if there is none, see {@link #hasClientCertificate()}
     */
    public Path clientCertificate() {
        requireClient();
        return clientCertificate;
    }

    /**
     * Returns the client certificate's private key.
     *
     * @return a PEM file with one unencrypted PKCS#8 {@code PRIVATE KEY}
     * @throws IllegalStateException if there is none, see {@link #hasClientCertificate()}
     */
    public Path clientPrivateKey() {
        requireClient();
        return clientPrivateKey;
    }

    /**
     * Returns a new in-memory trust store that holds the CA certificate and nothing else.
     *
     * @return a loaded PKCS#12 key store without password; callers may change it
     */
    public KeyStore trustStore() {
        try {
            KeyStore store = emptyKeyStore();
            store.setCertificateEntry("ca", ca);
            return store;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Could not build a trust store for the test CA", e);
        }
    }

    /**
     * Returns a TLS client context that trusts only this CA, and presents the client certificate if there is one.
     *
     * @return a new, initialized context
     */
    public SSLContext clientSslContext() {
        try {
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(trustStore());
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(clientKeyManagers(), trust.getTrustManagers(), RANDOM);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Could not build a TLS client context for the test CA", e);
        }
    }

    /** Deletes the certificate files; calling it again does nothing. */
    @Override
    public void close() {
        delete(directory);
    }

    private KeyManager[] clientKeyManagers() throws GeneralSecurityException {
        if (client == null) {
            return new KeyManager[0];
        }
        char[] noPassword = new char[0];
        KeyStore store = emptyKeyStore();
        store.setKeyEntry(
                "client", client.keys().getPrivate(), noPassword, new Certificate[] {client.certificate(), ca});
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, noPassword);
        return keys.getKeyManagers();
    }

    private void requireClient() {
        if (client == null) {
            throw new IllegalStateException(
                    "These test certificates have no client certificate; use generateWithClientCertificate()");
        }
    }

    private Issued issue(
            X500Name caName, KeyPair caKeys, X500Name subject, KeyPurposeId purpose, boolean forLoopbackServer)
            throws GeneralSecurityException, IOException {
        KeyPair keys = newKeyPair();
        JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
        X509v3CertificateBuilder builder = builder(caName, subject, keys)
                .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
                .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(purpose))
                .addExtension(
                        Extension.authorityKeyIdentifier,
                        false,
                        extensions.createAuthorityKeyIdentifier(caKeys.getPublic()));
        if (forLoopbackServer) {
            builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
                new GeneralName(GeneralName.iPAddress, FreePorts.LOOPBACK_HOST),
                new GeneralName(GeneralName.dNSName, LOOPBACK_NAME)
            }));
        }
        return new Issued(keys, sign(builder, caKeys));
    }

    private X509Certificate selfSigned(X500Name name, KeyPair keys) throws GeneralSecurityException, CertIOException {
        X509v3CertificateBuilder builder = builder(name, name, keys)
                .addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
                .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
                .addExtension(
                        Extension.subjectKeyIdentifier,
                        false,
                        new JcaX509ExtensionUtils().createSubjectKeyIdentifier(keys.getPublic()));
        return sign(builder, keys);
    }

    private static X509v3CertificateBuilder builder(X500Name issuer, X500Name subject, KeyPair keys) {
        Instant now = Instant.now();
        return new JcaX509v3CertificateBuilder(
                issuer,
                serialNumber(),
                Date.from(now.minus(BACKDATING)),
                Date.from(now.plus(VALIDITY)),
                subject,
                keys.getPublic());
    }

    private static X509Certificate sign(X509v3CertificateBuilder builder, KeyPair issuerKeys)
            throws GeneralSecurityException {
        try {
            return new JcaX509CertificateConverter()
                    .getCertificate(builder.build(
                            new JcaContentSignerBuilder(SIGNATURE_ALGORITHM).build(issuerKeys.getPrivate())));
        } catch (OperatorCreationException e) {
            throw new GeneralSecurityException("No " + SIGNATURE_ALGORITHM + " signer", e);
        }
    }

    private static KeyPair newKeyPair() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance(KEY_ALGORITHM);
        generator.initialize(new ECGenParameterSpec(CURVE), RANDOM);
        return generator.generateKeyPair();
    }

    /** Random rather than counted, so that certificates of different CAs in one JVM never look alike. */
    private static BigInteger serialNumber() {
        return new BigInteger(64, RANDOM).add(BigInteger.ONE);
    }

    private static KeyStore emptyKeyStore() throws GeneralSecurityException {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            return store;
        } catch (IOException e) {
            throw new GeneralSecurityException("Could not create an empty PKCS#12 key store", e);
        }
    }

    private Path writeCertificate(String fileName, X509Certificate certificate)
            throws IOException, GeneralSecurityException {
        return writePem(fileName, "CERTIFICATE", certificate.getEncoded());
    }

    /** The JDK encodes private keys as PKCS#8, which both OpenSSL (Redis) and Spring Boot's PEM bundles read. */
    private Path writePrivateKey(String fileName, KeyPair keys) throws IOException {
        return writePem(fileName, "PRIVATE KEY", keys.getPrivate().getEncoded());
    }

    private Path writePem(String fileName, String type, byte[] der) throws IOException {
        String base64 = Base64.getMimeEncoder(64, "\n".getBytes(US_ASCII)).encodeToString(der);
        String pem = "-----BEGIN " + type + "-----\n" + base64 + "\n-----END " + type + "-----\n";
        return Files.writeString(directory.resolve(fileName), pem, US_ASCII);
    }

    /** Best effort, like a server's directory: a leftover throwaway certificate harms nobody. */
    private static void delete(Path directory) {
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder())
                    .forEach(file -> file.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // Leaves the directory to the OS's temp cleanup.
        }
    }

    private record Issued(KeyPair keys, X509Certificate certificate) {}
}
