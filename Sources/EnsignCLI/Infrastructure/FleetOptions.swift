import Ensign
import EnsignFleet

/// `--etcd` and `--etcd-prefix`: how `serve` and `demo` join a fleet.
enum FleetOptions {
    /// The fleet source `--etcd` asks for, attached to `context`, under `--etcd-prefix` (else
    /// `defaultPrefix`) and spoken to with the TLS options; `nil` without `--etcd`.
    static func join(_ arguments: ParsedArguments, context: AppContext, defaultPrefix: String) throws
        -> EtcdFleetSource?
    {
        try arguments.option("etcd").map { urls in
            var etcd = EtcdConfiguration(
                endpoints: EtcdConfiguration.endpoints(fromList: urls),
                keyPrefix: arguments.option("etcd-prefix") ?? defaultPrefix)
            EtcdTLSOptions.apply(arguments, to: &etcd)
            return try EtcdFleetSource.start(context: context, configuration: etcd)
        }
    }
}
