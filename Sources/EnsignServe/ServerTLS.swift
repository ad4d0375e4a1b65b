/// The certificate and private key `ensign serve` presents when it speaks TLS itself (HTTPS),
/// for deployments without a TLS-terminating proxy in front.
///
/// Both are PEM text: the certificate chain (the server's certificate first, then any
/// intermediates) and its unencrypted private key. libmicrohttpd does the TLS, with GnuTLS as
/// Debian builds it.
///
/// ```swift
/// let tls = try ServerTLS(
///     certificateChainPEM: String(contentsOfFile: "server.crt", encoding: .utf8),
///     privateKeyPEM: String(contentsOfFile: "server.key", encoding: .utf8))
/// ```
public struct ServerTLS: Sendable {
    /// The certificate chain, PEM.
    public var certificateChainPEM: String
    /// The private key, PEM.
    public var privateKeyPEM: String

    /// Why a certificate or key is refused before the server starts.
    public struct Invalid: Error, Sendable, CustomStringConvertible {
        /// What is wrong, and what is expected.
        public var description: String
    }

    /// Checks that both texts are PEM (a certificate, and a private key) before the server is
    /// started with them; whether they match is checked by the TLS library at start.
    ///
    /// - Throws: ``Invalid`` when the certificate text has no `CERTIFICATE` block or the key
    ///   text no `PRIVATE KEY` block (an encrypted key is refused: the server has no passphrase).
    public init(certificateChainPEM: String, privateKeyPEM: String) throws(Invalid) {
        guard certificateChainPEM.contains("-----BEGIN CERTIFICATE-----") else {
            throw Invalid(description: "the certificate is not PEM text with a '-----BEGIN CERTIFICATE-----' block")
        }
        guard privateKeyPEM.contains("PRIVATE KEY-----") else {
            throw Invalid(description: "the key is not PEM text with a '-----BEGIN … PRIVATE KEY-----' block")
        }
        guard !privateKeyPEM.contains("ENCRYPTED") else {
            throw Invalid(description: "the key is encrypted; give an unencrypted key, readable by this user only")
        }
        self.certificateChainPEM = certificateChainPEM
        self.privateKeyPEM = privateKeyPEM
    }
}
