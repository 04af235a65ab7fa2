package io.distlock.test.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The generated CA and certificates, read back with the JDK as a TLS client or server would. */
class TestCertificatesTest {

    private static final int IP_ADDRESS = 7;
    private static final int DNS_NAME = 2;

    @Test
    void serverCertificateIsSignedByTheCaForLoopbackNamesAndFilesAreDeletedOnClose() throws Exception {
        Path directory;
        try (TestCertificates certificates = TestCertificates.generate()) {
            X509Certificate ca = read(certificates.caCertificate());
            X509Certificate server = read(certificates.serverCertificate());
            directory = certificates.caCertificate().getParent();

            server.verify(ca.getPublicKey());
            server.checkValidity();
            assertThat(ca.getBasicConstraints()).as("CA path length").isGreaterThanOrEqualTo(0);
            assertThat(server.getBasicConstraints()).as("not a CA").isEqualTo(-1);
            assertThat(server.getSubjectAlternativeNames())
                    .contains(List.of(IP_ADDRESS, "127.0.0.1"), List.of(DNS_NAME, "localhost"));
            assertThat(server.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.1");
            assertThat(Files.readString(certificates.serverPrivateKey()))
                    .startsWith("-----BEGIN PRIVATE KEY-----\n")
                    .endsWith("-----END PRIVATE KEY-----\n");

            KeyStore trustStore = certificates.trustStore();
            assertThat(trustStore.getCertificate("ca")).isEqualTo(ca);
            assertThat(trustStore.size()).isEqualTo(1);
            assertThat(certificates.hasClientCertificate()).isFalse();
            assertThatThrownBy(certificates::clientCertificate)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("generateWithClientCertificate()");
        }
        assertThat(directory).doesNotExist();
    }

    @Test
    void clientCertificateIsSignedByTheSameCaForClientAuthentication() throws Exception {
        try (TestCertificates certificates = TestCertificates.generateWithClientCertificate()) {
            X509Certificate client = read(certificates.clientCertificate());

            client.verify(read(certificates.caCertificate()).getPublicKey());
            assertThat(client.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.2");
            assertThat(Files.readString(certificates.clientPrivateKey())).startsWith("-----BEGIN PRIVATE KEY-----");
            assertThat(certificates.clientSslContext().getProtocol()).isEqualTo("TLS");
        }
    }

    @Test
    void everyGenerationHasItsOwnCa() throws Exception {
        try (TestCertificates first = TestCertificates.generate();
                TestCertificates second = TestCertificates.generate()) {
            X509Certificate secondServer = read(second.serverCertificate());

            assertThat(first.caCertificate()).isNotEqualTo(second.caCertificate());
            assertThatThrownBy(() ->
                            secondServer.verify(read(first.caCertificate()).getPublicKey()))
                    .isInstanceOf(GeneralSecurityException.class);
        }
    }

    private static X509Certificate read(Path pem) throws IOException, GeneralSecurityException {
        try (InputStream in = Files.newInputStream(pem)) {
            return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
        }
    }
}
