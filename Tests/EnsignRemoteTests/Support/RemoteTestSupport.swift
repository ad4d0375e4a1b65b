import Ensign
import Foundation

@testable import EnsignRemote
@testable import EnsignRemoteURLSession

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The flags a real `ensign serve` serves in the end-to-end tests.
let servedFlags = """
    version: 1
    namespace: list
    flags:
      pageSize: { type: int, default: 30, minimum: 5, maximum: 100 }
      sortOrder: { type: string, enum: [name, recent], default: name }
    """

/// The server's flags for the tests without sockets: ``servedFlags`` and two more;
/// `list.serverOnly` is one the app does not define.
let serverDefinitions =
    servedFlags + """

          showPending: { type: bool, default: true }
          serverOnly: { type: bool, default: true }
        """

/// The app's own flags, whose defaults differ from the server's so the source of a value shows.
let appDefinitions = """
    version: 1
    namespace: list
    flags:
      pageSize: { type: int, default: 10, minimum: 5, maximum: 100 }
      sortOrder: { type: string, enum: [name, recent], default: recent }
      showPending: { type: bool, default: false }
    """

/// The base URL the scripted transport pretends to be.
let testBaseURL = "http://ofrep.test:8016"

/// A configuration for tests: short waits, a poll interval of `poll`, the cache at `cacheFile`.
func testConfiguration(
    poll: Duration? = .seconds(3600), cacheFile: String? = nil, targetingKey: String = "user-1",
    baseURL: String = testBaseURL
) -> OFREPRemoteConfiguration {
    var configuration = OFREPRemoteConfiguration(
        baseURL: baseURL, evaluationContext: ["targetingKey": .string(targetingKey), "plan": "pro"],
        cacheFile: cacheFile)
    configuration.pollInterval = poll
    configuration.initialBackoff = .milliseconds(10)
    configuration.maximumBackoff = .milliseconds(100)
    configuration.requestTimeout = .seconds(5)
    return configuration
}

/// A fresh app over ``appDefinitions`` with a source attached that reads `server` with
/// `configuration`; the caller stops the source.
func attachedApp(
    _ configuration: OFREPRemoteConfiguration = testConfiguration(), server: ServiceTransport
) throws -> (context: AppContext, source: OFREPRemoteSource) {
    let context = try AppContext(definitions: appDefinitions)
    let source = try OFREPRemoteSource(configuration: configuration, transport: server)
    context.attach(source)
    return (context, source)
}

/// The library's two transports, for the tests that run the source against a real server with each.
enum RemoteTransportKind: String, CaseIterable, Sendable, CustomStringConvertible {
    /// EnsignHTTP's libcurl client (`OFREPRemoteSource(configuration:)`).
    case libcurl
    /// `URLSession` (`OFREPRemoteSource(configuration:sessionConfiguration:)`).
    case urlSession

    var description: String { rawValue }

    /// Whether the transport follows event streams; `URLSession` on Linux polls instead (it
    /// cannot cancel a task safely there: see `URLSessionTaskRouter`).
    var followsEventStreams: Bool {
        self == .libcurl || URLSessionTaskRouter.cancelsTasks
    }

    /// A source over this transport; one that polls does so every 50 ms.
    func makeSource(_ configuration: OFREPRemoteConfiguration) throws -> OFREPRemoteSource {
        var configuration = configuration
        if !followsEventStreams { configuration.pollInterval = .milliseconds(50) }
        switch self {
        case .libcurl: return try OFREPRemoteSource(configuration: configuration)
        case .urlSession:
            return try OFREPRemoteSource(configuration: configuration, sessionConfiguration: .ephemeral)
        }
    }

    /// Waits until the source is up to date with its server: streaming, or synced when it polls.
    func waitUntilLive(_ source: OFREPRemoteSource, timeout: Duration) -> Bool {
        followsEventStreams ? source.waitUntilStreaming(timeout: timeout) : source.waitUntilSynced(timeout: timeout)
    }
}
