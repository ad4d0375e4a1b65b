import EnsignTestSupport
import Foundation
import Testing

@testable import Ensign
@testable import EnsignRemote

/// The remote source with flagd's selector: one flag set's flags, asked for with the
/// `Flagd-Selector` header.
@Suite("OFREP remote source with a flag set selector")
struct RemoteSelectorTests {
    static let server = """
        version: 1
        namespace: list
        metadata: { flagSetId: web }
        flags:
          pageSize: { type: int, default: 30, minimum: 5, maximum: 100 }
          sortOrder: { type: string, enum: [name, recent], default: name, metadata: { flagSetId: mobile } }
        """

    @Test("Only the selected set's flags arrive; every request carries the selector")
    func selectedSet() throws {
        let server = try ServiceTransport(definitions: Self.server)
        var configuration = testConfiguration()
        configuration.selector = "flagSetId=mobile"
        let (context, source) = try attachedApp(configuration, server: server)
        defer { source.stop() }
        #expect(source.waitUntilSynced(timeout: .seconds(10)))
        #expect(context.value(forKeyNamed: "list.sortOrder") == "name", "the mobile set's flag, from the server")
        #expect(context.value(forKeyNamed: "list.pageSize") == 10, "the web set's flag is not delivered")
        #expect(
            server.state.withLock { $0.requests }.allSatisfy { request in
                request.headers.contains { $0.name == "Flagd-Selector" && $0.value == "flagSetId=mobile" }
            })
    }

    @Test("A selector that is not flagSetId=ID is refused when the source is made")
    func invalidSelector() throws {
        var configuration = testConfiguration()
        configuration.selector = "source=flags.json"
        #expect {
            _ = try OFREPRemoteSource(
                configuration: configuration, transport: try ServiceTransport(definitions: Self.server))
        } throws: { "\($0)".contains("selector") && "\($0)".contains("flagSetId=ID") }
    }

    @Test("Each selection is cached apart")
    func cacheKeys() {
        let context: EvaluationContext = ["targetingKey": "u"]
        let all = CachedEvaluation.cacheKey(baseURL: testBaseURL, context: context)
        let mobile = CachedEvaluation.cacheKey(baseURL: testBaseURL, context: context, selector: "flagSetId=mobile")
        let web = CachedEvaluation.cacheKey(baseURL: testBaseURL, context: context, selector: "flagSetId=web")
        #expect(Set([all, mobile, web]).count == 3)
    }
}
