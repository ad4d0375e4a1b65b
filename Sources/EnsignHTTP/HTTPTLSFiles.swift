#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files a TLS client uses: whom it trusts, and who it is when the server asks.
package struct HTTPTLSFiles: Sendable, Hashable {
    /// A PEM file of the certificate authorities to trust; `nil`: the system's trust store.
    package var certificateAuthorities: String?
    /// A PEM client certificate, for servers that ask for one (etcd's `--client-cert-auth`).
    package var certificate: String?
    /// The client certificate's private key, a PEM file.
    package var key: String?

    /// The files given; any may be `nil`.
    package init(certificateAuthorities: String? = nil, certificate: String? = nil, key: String? = nil) {
        self.certificateAuthorities = certificateAuthorities
        self.certificate = certificate
        self.key = key
    }

    /// What is wrong with the files, as a sentence that names the file, or `nil`: each must be
    /// a readable regular file, and a certificate comes with its key. Checked when a client is
    /// configured, so a typo is an error at start rather than a failed handshake later.
    package var problem: String? {
        if (certificate == nil) != (key == nil) {
            return "a client certificate needs its key: give both the certificate file and the key file, or neither"
        }
        for (what, path) in [
            ("CA file", certificateAuthorities), ("client certificate", certificate), ("key file", key),
        ] {
            guard let path else { continue }
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                return "the \(what) '\(path)' cannot be read: \(String(cString: strerror(errno)))"
            }
            var status = stat()
            let isFile = fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
            close(descriptor)
            if !isFile { return "the \(what) '\(path)' is not a regular file" }
        }
        return nil
    }
}
