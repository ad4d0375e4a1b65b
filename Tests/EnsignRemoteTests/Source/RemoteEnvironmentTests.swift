import EnsignTestSupport
import EnsignTestTraits
import Foundation
import Testing

@testable import Ensign
@testable import EnsignRemote

/// OFREP's client variables (ADR 0007): `OFREP_ENDPOINT`, `OFREP_HEADERS`, `OFREP_TIMEOUT_MS`.
@Suite("OFREP remote source configured from the environment")
struct RemoteEnvironmentTests {
    private let context: EvaluationContext = ["targetingKey": "user-1"]

    @Test("The ADR's example: the whole value percent-decoded, split at commas, each pair at its first '='")
    func adrExample() throws {
        let configuration = try OFREPRemoteConfiguration.fromEnvironment(
            evaluationContext: context,
            variables: [
                "OFREP_ENDPOINT": "http://localhost:2321",
                "OFREP_HEADERS": "Authorization=Bearer%20token,X-Custom=value",
                "OFREP_TIMEOUT_MS": "5000",
            ])
        #expect(configuration.baseURL == "http://localhost:2321")
        #expect(configuration.headers == ["Authorization": "Bearer token", "X-Custom": "value"])
        #expect(configuration.requestTimeout == .milliseconds(5000))
        #expect(configuration.environmentWarnings.isEmpty)
    }

    @Test(
        "Header values keep later '=' and '+', names and values are trimmed; an encoded comma still separates",
        arguments: [
            (" A = x=y== , B=a+b/c= ", ["A": "x=y==", "B": "a+b/c="]),
            ("A=1%2CB=2", ["A": "1", "B": "2"]),
            ("A=%3D%25", ["A": "=%"]),
            ("A=", ["A": ""]),
        ])
    func parsing(text: String, expected: [String: String]) throws {
        let parsed = OFREPRemoteConfiguration.parseHeaders(text)
        #expect(Dictionary(uniqueKeysWithValues: parsed.headers.map { ($0.name, $0.value) }) == expected)
        #expect(parsed.warnings.isEmpty)
    }

    @Test("Malformed entries are skipped with a warning each; the others are kept")
    func malformedEntries() throws {
        let parsed = OFREPRemoteConfiguration.parseHeaders("A=1,noequals,=value, =x,B=2,,C=a%0Ab")
        #expect(parsed.headers.map(\.name) == ["A", "B"])
        #expect(parsed.warnings.count == 4, "\(parsed.warnings)")
        #expect(parsed.warnings.contains { $0.contains("entry 2") && $0.contains("no '='") })
        #expect(parsed.warnings.contains { $0.contains("entry 3") && $0.contains("empty name") })
        #expect(parsed.warnings.contains { $0.contains("'C'") && $0.contains("control character") })
        let broken = OFREPRemoteConfiguration.parseHeaders("A=100%,B=2")
        #expect(broken.headers.isEmpty && broken.warnings.count == 1 && broken.warnings[0].contains("percent-encoding"))
    }

    @Test("What the code gives wins: the base URL, each header by name in any case, and later assignments")
    func precedence() throws {
        var configuration = try OFREPRemoteConfiguration.fromEnvironment(
            evaluationContext: context, baseURL: "https://flags.internal", headers: ["authorization": "Bearer code"],
            variables: [
                "OFREP_ENDPOINT": "http://elsewhere:1", "OFREP_HEADERS": "Authorization=Bearer env,X-Team=payments",
                "OFREP_TIMEOUT_MS": "2500",
            ])
        #expect(configuration.baseURL == "https://flags.internal")
        #expect(configuration.headers == ["authorization": "Bearer code", "X-Team": "payments"])
        #expect(configuration.requestTimeout == .milliseconds(2500))
        configuration.requestTimeout = .seconds(1)
        #expect(configuration.requestTimeout == .seconds(1))
    }

    @Test("No server, a bad endpoint or a bad timeout is an error naming the variable")
    func errors() {
        #expect {
            _ = try OFREPRemoteConfiguration.fromEnvironment(evaluationContext: context, variables: [:])
        } throws: { "\($0)".contains("OFREP_ENDPOINT") }
        #expect {
            _ = try OFREPRemoteConfiguration.fromEnvironment(
                evaluationContext: context, variables: ["OFREP_ENDPOINT": "localhost:2321"])
        } throws: { "\($0)".contains("OFREP_ENDPOINT='localhost:2321'") }
        for timeout in ["0", "-5", "5s", "1.5"] {
            #expect {
                _ = try OFREPRemoteConfiguration.fromEnvironment(
                    evaluationContext: context,
                    variables: ["OFREP_ENDPOINT": "http://localhost:2321", "OFREP_TIMEOUT_MS": timeout])
            } throws: { "\($0)".contains("OFREP_TIMEOUT_MS='\(timeout)'") }
        }
    }

    @Test("The source sends the variables' headers and reports the skipped entries in the context's status")
    func sourceUsesThem() throws {
        let server = try ServiceTransport(definitions: serverDefinitions)
        let configuration = try OFREPRemoteConfiguration.fromEnvironment(
            evaluationContext: context,
            variables: ["OFREP_ENDPOINT": testBaseURL, "OFREP_HEADERS": "Authorization=Bearer%20env,broken"])
        let (appContext, source) = try attachedApp(configuration, server: server)
        defer { source.stop() }
        #expect(source.waitUntilSynced(timeout: .seconds(10)))
        #expect(
            server.bulkRequests.allSatisfy { request in
                request.headers.contains { $0.name == "Authorization" && $0.value == "Bearer env" }
            })
        let warnings = appContext.status.fleet?.diagnostics ?? []
        #expect(
            warnings.contains { $0.severity == .warning && $0.message.contains("OFREP_HEADERS entry 2") },
            "\(warnings)")
    }
}
