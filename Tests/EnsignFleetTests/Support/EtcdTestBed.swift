import EnsignTestSupport
import Foundation
import Testing

@testable import Ensign
@testable import EnsignFleet

/// What an etcd integration test starts from: a fresh cluster (speaking TLS to clients, if
/// asked), a key prefix of the test's own with a client writing under it, and a scratch
/// directory. ``run(size:tls:prefix:_:)`` stops every source and probe started here, then the
/// cluster, however the test ends, so no test has to remember to.
final class EtcdTestBed {
    let cluster: EtcdCluster
    let prefix: String
    let client: EtcdClient
    /// For the test's files (definitions, certificates); removed with the test bed.
    let directory: TemporaryDirectory
    private var sources: [EtcdFleetSource] = []
    private var probes: [FleetProbe] = []

    private init(cluster: EtcdCluster, prefix: String, directory: TemporaryDirectory) throws {
        self.cluster = cluster
        self.prefix = prefix
        self.directory = directory
        client = try cluster.client(prefix: prefix)
    }

    /// Runs `body` with a new test bed of `size` members and a prefix made from `label`.
    static func run(
        size: Int = 1, tls: Bool = false, prefix label: String = "test", _ body: (EtcdTestBed) throws -> Void
    ) throws {
        let directory = try TemporaryDirectory()
        let cluster = try EtcdCluster(size: size, tls: tls ? EtcdCluster.TLS(in: directory) : nil)
        defer { cluster.stop() }
        let bed = try EtcdTestBed(cluster: cluster, prefix: uniquePrefix(label), directory: directory)
        defer {
            for probe in bed.probes { probe.stop() }
            for source in bed.sources { source.stop() }
        }
        try body(bed)
    }

    /// The first member's client URL: where a source on the members' URLs reads first.
    var firstClientURL: String { cluster.clientURLs[0] }

    /// The cluster's TLS files; only for a test bed started with `tls: true`.
    var tls: EtcdCluster.TLS { cluster.tls! }

    /// Writes `text` at `key` under the prefix; returns the write's revision.
    @discardableResult
    func put(_ key: String, _ text: String) throws -> Int64 {
        try client.put(prefix + key, value: Array(text.utf8))
    }

    /// `ensign fleet`'s options for the cluster and the prefix, with the TLS files when the
    /// cluster has them.
    var commandLineOptions: [String] {
        ["--etcd", cluster.clientURLs.joined(separator: ","), "--prefix", prefix]
            + (cluster.tls?.commandLineOptions ?? [])
    }

    /// A definitions directory holding `text` as `app.yaml`, for the `ensign` and probe processes.
    func definitionsDirectory(_ text: String = bankDefinitions) throws -> String {
        let file = try directory.write("flags-\(UUID().uuidString)/app.yaml", text)
        return URL(fileURLWithPath: file).deletingLastPathComponent().path
    }

    /// A source configuration on the prefix through `endpoints` (the members' by default),
    /// with the cluster's TLS files when it has them.
    func sourceConfiguration(endpoints: [String]? = nil) -> EtcdConfiguration {
        var configuration = testConfiguration(endpoints ?? cluster.clientURLs, prefix: prefix)
        cluster.tls?.configure(&configuration)
        return configuration
    }

    /// Starts a source for `context` (on ``sourceConfiguration(endpoints:)`` unless given
    /// another configuration), to be stopped with the test bed.
    func startSource(for context: AppContext, configuration: EtcdConfiguration? = nil) throws -> EtcdFleetSource {
        let source = try EtcdFleetSource.start(context: context, configuration: configuration ?? sourceConfiguration())
        sources.append(source)
        return source
    }

    /// An app context on `definitions` (and `deploymentOverlays`) fed by a source on the prefix
    /// through `endpoints`; throws unless the source has read the prefix within 10 seconds.
    func startSyncedApp(
        definitions: String = bankDefinitions, deploymentOverlays: [String] = [], endpoints: [String]? = nil
    ) throws -> (context: AppContext, source: EtcdFleetSource) {
        let context = try AppContext(definitions: definitions, deploymentOverlays: deploymentOverlays)
        let source = try startSource(for: context, configuration: sourceConfiguration(endpoints: endpoints))
        guard source.waitUntilSynced(timeout: .seconds(10)) else {
            throw EtcdTestError("a fleet source did not read \(prefix) within 10 seconds")
        }
        return (context, source)
    }

    /// `count` app processes on `flags` (a definitions directory) and the prefix, each
    /// reporting the values of `key` it sees; stopped with the test bed.
    func startProbes(_ count: Int, flags: String, watching key: String) throws -> [FleetProbe] {
        let started = try (0..<count).map { _ in
            try FleetProbe(flags: flags, endpoints: cluster.clientURLs, prefix: prefix, key: key)
        }
        probes += started
        return started
    }
}
