import EnsignFleet

/// `--cacert`, `--cert` and `--key`, etcdctl's names: how every command that reaches etcd
/// (`fleet`, `serve --etcd`, `demo --etcd`) speaks TLS to it.
enum EtcdTLSOptions {
    static let group = OptionGroup(
        "etcd over TLS (https:// endpoints)",
        [
            .value(
                "cacert", "FILE",
                "trust etcd members whose certificates this PEM certificate authority issued (default: the system's"
                    + " trust store)"),
            .value(
                "cert", "FILE", "a PEM client certificate, for a cluster that requires one (etcd's client-cert-auth)"),
            .value("key", "FILE", "the client certificate's PEM private key file (a path: the key stays in its file)"),
        ])

    /// Sets the configuration's TLS files from the options given.
    static func apply(_ arguments: ParsedArguments, to configuration: inout EtcdConfiguration) {
        configuration.caFile = arguments.option("cacert")
        configuration.certificateFile = arguments.option("cert")
        configuration.keyFile = arguments.option("key")
    }
}
