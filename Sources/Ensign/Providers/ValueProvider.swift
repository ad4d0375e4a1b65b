/// A source of values for a context: the definitions files, an etcd fleet, an in-memory
/// store for tests, or a remote source of your own.
///
/// A provider feeds one ``ProviderLayer``. It says what it holds now
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
///     let layer = ProviderLayer.fleet
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
/// try context.attach(remote)
/// ```
///
/// Conforming types: ``FileValueProvider`` (the ``ProviderLayer/files`` layer),
/// ``InMemoryValueProvider`` (the ``ProviderLayer/fleet`` layer, for tests and previews),
/// EnsignFleet's `EtcdFleetSource` and EnsignRemote's `OFREPRemoteSource`. EnsignTesting's `ValueProviderCompatibilityTest` checks a
/// provider against this contract; see <doc:ValueProviders>.
///
/// ## Contract
///
/// - ``name`` names the provider in provenance, the context's status and the change log:
///   `etcd http://127.0.0.1:2379`, `files flags/`, `memory`.
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

    /// The layer the provider feeds.
    var layer: ProviderLayer { get }

    /// What the provider holds now: its values by full key, each with its provenance, the
    /// problems it found reading them, and its revision when it has one.
    func currentValues() -> ProvidedValues

    /// Starts delivering changes and health to `updates`, which the context owns.
    ///
    /// The context calls it when the provider is attached (``AppContext/attach(_:)``, or when a
    /// context is built from a ``FileValueProvider``). A provider feeds one context at a time.
    func start(delivering updates: ValueProviderUpdates)

    /// Stops delivering: once it returns, no more updates reach the context, whose values from
    /// this provider stay as they were last delivered. Calling it again does nothing.
    func stop()
}

/// The layers a ``ValueProvider`` can feed.
///
/// Each is a band of the resolution order (see <doc:LayersAndReasons>); targeting,
/// preferences and overrides are above every provider.
public enum ProviderLayer: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The definitions, the environment's values and the deployment files (layers 2–4): the
    /// layer ``FileValueProvider`` feeds, and only it, since definitions come with it. A
    /// context is built from it (``AppContext/init(files:)``) rather than attached to it.
    case files
    /// The fleet layer (4½), between the deployment files and targeting: values shared by every
    /// instance of an app (etcd, a remote service), or an ``InMemoryValueProvider`` in tests.
    /// Its values resolve with reason `STATIC`; their source names the provider.
    case fleet

    /// The value layers this band is made of, lowest first.
    public var valueLayers: [ValueLayer] {
        switch self {
        case .files: return [.definition, .environment, .deployment]
        case .fleet: return [.fleet]
        }
    }

    /// `files` or `fleet`.
    public var description: String {
        switch self {
        case .files: return "files"
        case .fleet: return "fleet"
        }
    }
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

/// Why a context refused to attach a provider.
public enum ValueProviderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Only a ``FileValueProvider`` feeds ``ProviderLayer/files``, and a context is built from it
    /// (``AppContext/init(files:)``); the provider's name.
    case notAttachable(String)

    /// Why, in a sentence.
    public var description: String {
        switch self {
        case .notAttachable(let name):
            return "'\(name)' feeds the files layer: a context is built from it (AppContext(files:)), not attached"
        }
    }
}
