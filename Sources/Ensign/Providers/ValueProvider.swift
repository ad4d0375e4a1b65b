/// A source of values from outside the app's files: an etcd fleet, a remote flag service, an
/// in-memory store for tests, or a source of your own.
///
/// A provider feeds a context's fleet layer (4½, between the deployment files and targeting:
/// see <doc:LayersAndReasons>); its values resolve with reason `STATIC` and their source names
/// the provider. The context's own files are not a provider: the context reads them and
/// reloads them itself (``AppContextConfiguration/watchesFiles``). A provider says what it holds now
/// (``currentValues()``), and once a context has attached it, it delivers every later
/// change, and its health, through the ``ValueProviderUpdates`` handle the context gives it
/// in ``start(delivering:)``, until ``stop()``. The context does the rest: it checks each
/// value against its key's definition, keeps the last good values when a delivery is bad,
/// commits each delivery as one transaction and notifies exactly the observers of keys whose
/// resolved value changed.
///
/// ```swift
/// final class RemoteFlags: ValueProvider {
///     let name = "remote https://flags.example/bank"
///     let client: RemoteFlagClient  // your client: calls back with each new set of values
///
///     init(client: RemoteFlagClient) { self.client = client }
///
///     func currentValues() -> ProvidedValues { client.lastValues }
///
///     func start(delivering updates: ValueProviderUpdates) {
///         client.subscribe { event in
///             switch event {
///             case .values(let values, let revision):
///                 updates.replaceAll(
///                     values.mapValues { ProvidedValue($0, origin: "remote rev \(revision)") }, revision: revision)
///             case .connected(let revision): updates.reportHealthy(revision: revision)
///             case .failed(let error): updates.reportUnavailable(error: "\(error)")
///             }
///         }
///     }
///
///     func stop() { client.unsubscribe() }  // returns once no callback can run
/// }
///
/// let context = try AppContext(configuration: .init(definitionsDirectory: "flags"))
/// let remote = RemoteFlags(client: RemoteFlagClient(url: "https://flags.example/bank"))
/// context.attach(remote)
/// ```
///
/// Conforming types: ``InMemoryValueProvider`` (for tests and previews), EnsignFleet's `EtcdFleetSource` and EnsignRemote's `OFREPRemoteSource`. EnsignTesting's `ValueProviderCompatibilityTest` checks a
/// provider against this contract; see <doc:ValueProviders>.
///
/// ## Contract
///
/// - ``name`` names the provider in provenance, the context's status and the change log:
///   `etcd http://127.0.0.1:2379`, `memory`.
/// - ``start(delivering:)`` returns promptly; the provider delivers its current values with
///   ``ValueProviderUpdates/replaceAll(_:revision:problems:from:)`` soon after (on any thread),
///   then each change as a whole new set of values (the context diffs them by value).
/// - Deliveries come from one thread at a time, in the order of the provider's revisions.
/// - After ``stop()`` returns the provider delivers nothing more.
/// - Observers of the keys a delivery changes run on the delivering thread, before
///   ``ValueProviderUpdates/replaceAll(_:revision:problems:from:)`` returns, and may write to
///   the provider again (it must not hold its own lock while it delivers).
public protocol ValueProvider: Sendable {
    /// The provider's name, in provenance, status and the change log: `etcd http://127.0.0.1:2379`.
    var name: String { get }

    /// What the provider holds now: its values by full key, each with its provenance, the
    /// problems it found reading them, and its revision when it has one.
    func currentValues() -> ProvidedValues

    /// Starts delivering changes and health to `updates`, which the context owns.
    ///
    /// The context calls it when the provider is attached (``AppContext/attach(_:)``). A
    /// provider feeds one context at a time.
    func start(delivering updates: ValueProviderUpdates)

    /// Stops delivering: once it returns, no more updates reach the context, whose values from
    /// this provider stay as they were last delivered. Calling it again does nothing.
    func stop()
}

/// One key's value as a ``ValueProvider`` holds it, with its provenance.
///
/// ```swift
/// let value = ProvidedValue(50, origin: "etcd http://127.0.0.1:2379 rev 42", path: "etcd:/bank/flags/list.pageSize")
/// print(value.provenance)  // fleet etcd http://127.0.0.1:2379 rev 42
/// ```
public struct ProvidedValue: Sendable, Hashable {
    /// The value, as parsed by the provider (the context checks it against the definition).
    public var value: JSONValue
    /// Where it comes from: the layer and a location, `flags/app.yaml:3:12` or an origin text
    /// such as `etcd http://127.0.0.1:2379 rev 42`. This is the resolved value's source.
    public var provenance: ValueSource
    /// The value's address in the provider, the path of its diagnostics:
    /// `etcd:/bank/flags/list.pageSize`, or the file it was read from.
    public var path: String

    /// Creates a value with a provenance of your own.
    public init(_ value: JSONValue, provenance: ValueSource, path: String) {
        self.value = value
        self.provenance = provenance
        self.path = path
    }

    /// Creates a fleet-layer value whose provenance is the text `origin`
    /// (`etcd http://127.0.0.1:2379 rev 42`); `path` defaults to `origin`.
    public init(_ value: JSONValue, origin: String, path: String? = nil) {
        self.init(value, provenance: ValueSource(layer: .fleet, location: .unknown(origin)), path: path ?? origin)
    }

    /// The provenance's location as text: `flags/app.yaml:3:12`, `etcd http://127.0.0.1:2379 rev 42`.
    public var origin: String { provenance.location?.description ?? "" }
}

/// Everything a ``ValueProvider`` holds at one moment.
///
/// ```swift
/// let held = provider.currentValues()
/// for (key, value) in held.values.sorted(by: { $0.key < $1.key }) { print(key, value.value, value.provenance) }
/// ```
public struct ProvidedValues: Sendable, Hashable {
    /// The values, by full key (`beneficiaries.pageSize`).
    public var values: [String: ProvidedValue]
    /// Problems the provider found reading its store (a value that does not parse), each at
    /// the value's path.
    public var diagnostics: [Diagnostic]
    /// The store's revision these values reflect, when the store has revisions.
    public var revision: Int64?

    /// Creates a set of values.
    public init(values: [String: ProvidedValue] = [:], diagnostics: [Diagnostic] = [], revision: Int64? = nil) {
        self.values = values
        self.diagnostics = diagnostics
        self.revision = revision
    }
}
