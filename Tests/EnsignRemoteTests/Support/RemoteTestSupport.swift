import Ensign
import EnsignRemote
import EnsignRemoteURLSession
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The server's flags: `list.serverOnly` is one the app does not define.
let serverDefinitions = """
    version: 1
    namespace: list
    flags:
      pageSize: { type: int, default: 30, minimum: 5, maximum: 100 }
      sortOrder: { type: string, enum: [name, recent], default: name }
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

/// The library's two transports, for the tests that run the source against a real server with each.
enum RemoteTransportKind: String, CaseIterable, Sendable, CustomStringConvertible {
    /// EnsignHTTP's socket client (`OFREPRemoteSource(configuration:)`).
    case socket
    /// `URLSession` (`OFREPRemoteSource(configuration:sessionConfiguration:)`).
    case urlSession

    var description: String { rawValue }

    /// A source over this transport.
    func makeSource(_ configuration: OFREPRemoteConfiguration) throws -> OFREPRemoteSource {
        switch self {
        case .socket: try OFREPRemoteSource(configuration: configuration)
        case .urlSession: try OFREPRemoteSource(configuration: configuration, sessionConfiguration: .ephemeral)
        }
    }
}
