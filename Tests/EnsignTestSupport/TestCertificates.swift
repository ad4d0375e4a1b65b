import Foundation

/// A certificate and its private key, PEM files made with the `openssl` command, for tests that
/// speak TLS: self-signed, or issued by a ``TestCertificateAuthority``.
///
/// ```swift
/// let directory = try TemporaryDirectory()
/// let authority = try TestCertificateAuthority(in: directory)
/// let server = try authority.issue()  // for 127.0.0.1 and localhost
/// // serve with server.certificate and server.key; clients trust authority.certificate
/// ```
public struct TestCertificate: Sendable {
    /// The certificate file, PEM.
    public let certificate: String
    /// Its private key file, PEM, unencrypted.
    public let key: String

    /// `openssl` failed; what it said.
    public struct Failed: Error, CustomStringConvertible {
        /// The command's standard error.
        public var description: String
    }

    /// The subject alternative names of a certificate for a loopback server.
    public static let loopbackNames = "IP:127.0.0.1,DNS:localhost"

    /// A self-signed certificate for 127.0.0.1 and `localhost` in `directory`, as `name.crt`
    /// and `name.key`: a client trusts it by trusting the certificate itself.
    public init(in directory: TemporaryDirectory, name: String = "server") throws {
        certificate = directory.path + "/\(name).crt"
        key = directory.path + "/\(name).key"
        try Self.openssl([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "2", "-subj",
            "/CN=127.0.0.1", "-addext", "subjectAltName=\(Self.loopbackNames)",
        ])
    }

    init(certificate: String, key: String) {
        self.certificate = certificate
        self.key = key
    }

    /// Runs `openssl` with `arguments` (to derive files from a certificate or key: an
    /// encrypted key, a DER form); throws with its standard error when it fails.
    public static func openssl(_ arguments: [String]) throws {
        let made = try BuiltExecutable.run(executable: URL(fileURLWithPath: "/usr/bin/env"), ["openssl"] + arguments)
        guard made.status == 0 else {
            throw Failed(description: "openssl \(arguments.first ?? ""): \(made.errors)")
        }
    }
}

/// A private certificate authority made for one test: nothing on the machine trusts it, so a
/// client trusts the certificates it issues only when told to trust ``certificate``.
public struct TestCertificateAuthority: Sendable {
    /// The authority's own certificate file, PEM: what a client is given to trust.
    public let certificate: String
    /// The authority's private key file, PEM.
    public let key: String
    private let directory: String

    /// A root authority in `directory`, as `name.pem` and `name.key`.
    public init(in directory: TemporaryDirectory, name: String = "ca") throws {
        self.directory = directory.path
        certificate = directory.path + "/\(name).pem"
        key = directory.path + "/\(name).key"
        try TestCertificate.openssl([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "2", "-subj",
            "/CN=Ensign test CA \(name)", "-addext", "basicConstraints=critical,CA:TRUE", "-addext",
            "keyUsage=critical,keyCertSign,cRLSign",
        ])
    }

    private init(directory: String, certificate: String, key: String) {
        self.directory = directory
        self.certificate = certificate
        self.key = key
    }

    /// A server certificate signed by this authority, as `name.crt` and `name.key` beside it.
    ///
    /// - Parameters:
    ///   - subjectAltName: the names it is valid for, in `openssl`'s syntax; clients check
    ///     these, not the common name.
    ///   - usage: its extended key usage; etcd's members need `serverAuth,clientAuth`, as they
    ///     are clients of their own gateway.
    public func issue(
        name: String = "server", subjectAltName: String = TestCertificate.loopbackNames, usage: String = "serverAuth"
    ) throws -> TestCertificate {
        try sign(
            name: name, commonName: "127.0.0.1",
            extensions: [
                "subjectAltName=\(subjectAltName)", "basicConstraints=critical,CA:FALSE",
                "keyUsage=critical,digitalSignature,keyEncipherment", "extendedKeyUsage=\(usage)",
            ])
    }

    /// A client certificate signed by this authority for `commonName` (the user a server that
    /// maps certificates to users sees; `nil`: none, as etcd's JSON gateway wants when
    /// authentication is enabled), as `name.crt` and `name.key`.
    public func issueClient(name: String = "client", commonName: String? = "ensign-test") throws -> TestCertificate {
        try sign(
            name: name, subject: commonName.map { "/CN=\($0)" } ?? "/O=Ensign tests",
            extensions: [
                "basicConstraints=critical,CA:FALSE", "keyUsage=critical,digitalSignature,keyEncipherment",
                "extendedKeyUsage=clientAuth",
            ])
    }

    /// An intermediate authority signed by this one, as `name.crt` and `name.key`: a server
    /// whose certificate it issues sends it along (a chain), and clients trust only the root.
    public func issueIntermediate(name: String = "intermediate") throws -> TestCertificateAuthority {
        let signed = try sign(
            name: name, commonName: "Ensign test CA \(name)",
            extensions: ["basicConstraints=critical,CA:TRUE,pathlen:0", "keyUsage=critical,keyCertSign,cRLSign"])
        return TestCertificateAuthority(directory: directory, certificate: signed.certificate, key: signed.key)
    }

    /// A new key and a certificate for it with exactly `extensions`, signed by this authority.
    private func sign(name: String, commonName: String, extensions: [String]) throws -> TestCertificate {
        try sign(name: name, subject: "/CN=\(commonName)", extensions: extensions)
    }

    /// A new key and a certificate for `subject` (`/CN=…`) with exactly `extensions`, signed by this authority.
    private func sign(name: String, subject: String, extensions: [String]) throws -> TestCertificate {
        let issued = TestCertificate(certificate: directory + "/\(name).crt", key: directory + "/\(name).key")
        let request = directory + "/\(name).csr"
        let extensionsFile = directory + "/\(name).ext"
        try (extensions.joined(separator: "\n") + "\n").write(toFile: extensionsFile, atomically: true, encoding: .utf8)
        try TestCertificate.openssl([
            "req", "-newkey", "rsa:2048", "-nodes", "-keyout", issued.key, "-out", request, "-subj", subject,
        ])
        // A random serial: two certificates from one authority must not share one.
        try TestCertificate.openssl([
            "x509", "-req", "-in", request, "-CA", certificate, "-CAkey", key, "-set_serial",
            String(UInt64.random(in: 1...UInt64(Int64.max))), "-days", "2", "-extfile", extensionsFile, "-out",
            issued.certificate,
        ])
        return issued
    }
}
