package io.distlock.test.redis;

import java.util.List;

/**
 * The TLS port a server opens next to its plain one, and the certificates it serves there.
 *
 * @param port the TLS port
 * @param certificates the server certificate, its key, and the CA that client certificates must be signed by
 * @param clientCertificatesRequired whether a client must present a certificate signed by that CA ({@code
 *     tls-auth-clients yes}) or may connect without one ({@code no})
 */
record ServerTls(int port, TestCertificates certificates, boolean clientCertificatesRequired) {

    /** Arguments rather than config directives, so that paths reach redis-server verbatim, spaces and all. */
    List<String> redisArgs() {
        return List.of(
                "--tls-port",
                Integer.toString(port),
                "--tls-cert-file",
                certificates.serverCertificate().toString(),
                "--tls-key-file",
                certificates.serverPrivateKey().toString(),
                "--tls-ca-cert-file",
                certificates.caCertificate().toString(),
                "--tls-auth-clients",
                clientCertificatesRequired ? "yes" : "no");
    }
}
