import Ensign
import EnsignJSON
import EnsignServe
import EnsignTestSupport
import EnsignTestTraits
import Foundation
import LoopbackLoad
import Testing

/// `ensign serve --tls-cert --tls-key` as it is deployed: a certificate from a private CA the
/// test makes, clients that verify it (curl, OpenFeature's Python OFREP provider), clients that
/// do not trust it, clients that do not speak TLS or stop half-way through the handshake, and
/// certificates and keys the server must refuse at start.
@Suite("ensign serve over TLS")
struct ServeTLSTests {
    /// In flagd's format, which the Python client's program reads each flag's type from (its
    /// variants). Every flag has variants: the Python provider 0.3.0 cannot read a response
    /// without one (see OpenFeatureClientTests).
    static let flags = """
        {
          "flags": {
            "banner": {
              "state": "ENABLED", "variants": { "on": true, "off": false }, "defaultVariant": "off",
              "targeting": { "if": [{ "==": [{ "var": "locale" }, "fr-FR"] }, "on", "off"] }
            },
            "color": { "state": "ENABLED", "variants": { "blue": "blue", "red": "red" }, "defaultVariant": "blue" },
            "page-size": {
              "state": "ENABLED", "variants": { "small": 10, "large": 50 }, "defaultVariant": "small",
              "targeting": { "if": [{ "==": [{ "var": "user.tier" }, "gold"] }, "large", "small"] }
            },
            "ratio": { "state": "ENABLED", "variants": { "half": 0.5, "most": 0.9 }, "defaultVariant": "half" },
            "layout": {
              "state": "ENABLED", "variants": { "grid": { "columns": 3 }, "list": { "columns": 1 } },
              "defaultVariant": "grid"
            }
          }
        }
        """
    static let flagKeys: Set<String> = ["banner", "color", "page-size", "ratio", "layout"]

    /// This test's CA, certificate and flags: Swift Testing makes the suite anew for each test,
    /// arguments included, so no two tests share them.
    let fixture: Fixture

    init() throws {
        fixture = try Fixture()
    }

    /// The first 40 bytes of a TLS record announcing a 512-byte ClientHello: a client that
    /// stops part-way through its first handshake message, which the server must wait for
    /// without holding anyone else up.
    static let halfClientHello: [UInt8] =
        [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03] + Array(repeating: 0x2A, count: 29)

    /// A private CA, a server certificate for 127.0.0.1 and localhost that it signed, and the
    /// flags, in a fresh directory.
    struct Fixture {
        let directory: TemporaryDirectory
        let authority: TestCertificateAuthority
        let certificate: TestCertificate
        let flagsFile: String

        init() throws {
            directory = try TemporaryDirectory()
            authority = try TestCertificateAuthority(in: directory)
            certificate = try authority.issue()
            flagsFile = try directory.write("flags.json", ServeTLSTests.flags)
        }

        /// `ensign serve` speaking TLS with `certificateFile` (by default the server
        /// certificate) and `keyFile` (by default its key).
        func serve(certificateFile: String? = nil, keyFile: String? = nil) throws -> ServeProcess {
            try ServeProcess(
                flags: flagsFile,
                arguments: [
                    "--tls-cert", certificateFile ?? certificate.certificate, "--tls-key", keyFile ?? certificate.key,
                ])
        }

        /// The certificate and key as `ServerTLS`, for a server in this process.
        func serverTLS() throws -> ServerTLS {
            try ServerTLS(
                certificateChainPEM: String(contentsOfFile: certificate.certificate, encoding: .utf8),
                privateKeyPEM: String(contentsOfFile: certificate.key, encoding: .utf8))
        }
    }

    /// What curl did: its exit status (0, or why it failed: 60 when the certificate is not
    /// verified), the HTTP status (0 when there was none), the ETag, the body, and what it said.
    struct Curl {
        var exitStatus: Int32
        var status: Int
        var entityTag: String
        var body: String
        var errors: String

        var json: JSONValue? { try? JSONValue(jsonText: body) }
        var summary: String { "curl exit \(exitStatus), HTTP \(status): \(body) \(errors)" }
    }

    /// Runs curl on `url`, with `--cacert authority` when given, and `arguments`.
    static func curl(_ url: String, trusting authority: String?, _ arguments: [String] = []) throws -> Curl {
        let result = try BuiltExecutable.run(
            executable: URL(fileURLWithPath: "/usr/bin/env"),
            ["curl", "--silent", "--show-error", "--max-time", "60", "--write-out", "\n%{http_code}\n%header{etag}"]
                + (authority.map { ["--cacert", $0] } ?? []) + arguments + [url])
        var lines = result.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let entityTag = lines.popLast() ?? ""
        let status = lines.popLast().flatMap { Int($0) } ?? 0
        return Curl(
            exitStatus: result.status, status: status, entityTag: entityTag, body: lines.joined(separator: "\n"),
            errors: result.errors)
    }

    /// Evaluates `key` over https with curl, for `context`.
    static func evaluate(
        _ key: String, port: Int, host: String = "127.0.0.1", trusting authority: String?,
        context: String = #"{"context":{}}"#
    ) throws -> Curl {
        try curl("https://\(host):\(port)/ofrep/v1/evaluate/flags/\(key)", trusting: authority, ["--data", context])
    }

    @Test(
        "Trusting the private CA, curl evaluates one flag and all of them over https, by address and by name; the health endpoints share the TLS",
        .blocksItsThread)
    func curlTrustingTheAuthority() throws {
        let server = try fixture.serve()
        let authority = fixture.authority.certificate
        #expect(server.output.contains("OFREP on https://127.0.0.1:\(server.port)/ofrep/v1"), "\(server.output)")
        #expect(server.output.contains("health and metrics: https://127.0.0.1:\(server.port)/healthz"))

        let france = try Self.evaluate(
            "banner", port: server.port, trusting: authority,
            context: #"{"context":{"targetingKey":"u","locale":"fr-FR"}}"#)
        #expect(france.status == 200, "\(france.summary)")
        #expect(france.json?["value"] == true)
        #expect(france.json?["variant"] == "on")
        #expect(france.json?["reason"] == "TARGETING_MATCH")
        // The certificate's other name: curl checks it against the subjectAltName.
        let byName = try Self.evaluate("page-size", port: server.port, host: "localhost", trusting: authority)
        #expect(byName.status == 200, "\(byName.summary)")
        #expect(byName.json?["value"] == 10)

        let bulkURL = "https://127.0.0.1:\(server.port)/ofrep/v1/evaluate/flags"
        let bulk = try Self.curl(bulkURL, trusting: authority, ["--data", #"{"context":{}}"#])
        #expect(bulk.status == 200, "\(bulk.summary)")
        let keys = bulk.json?["flags"]?.arrayValue?.compactMap { $0["key"]?.stringValue } ?? []
        #expect(Set(keys) == Self.flagKeys)
        #expect(!bulk.entityTag.isEmpty)
        let revalidated = try Self.curl(
            bulkURL, trusting: authority,
            ["--data", #"{"context":{}}"#, "--header", "If-None-Match: \(bulk.entityTag)"])
        #expect(revalidated.status == 304, "\(revalidated.summary)")

        let health = try Self.curl("https://127.0.0.1:\(server.managementPort)/healthz", trusting: authority)
        #expect(health.status == 200, "\(health.summary)")
    }

    @Test(
        "curl trusting no private CA, or another one, fails certificate verification; the server goes on serving",
        .blocksItsThread)
    func untrustedClientsFailVerification() throws {
        let server = try fixture.serve()
        let systemTrust = try Self.evaluate("color", port: server.port, trusting: nil)
        // 60: "peer certificate cannot be authenticated with given CA certificates".
        #expect(systemTrust.exitStatus == 60, "\(systemTrust.summary)")
        #expect(systemTrust.errors.contains("certificate"))
        #expect(systemTrust.body.isEmpty)
        let other = try TestCertificateAuthority(in: fixture.directory, name: "other-ca")
        let otherTrust = try Self.evaluate("color", port: server.port, trusting: other.certificate)
        #expect(otherTrust.exitStatus == 60, "\(otherTrust.summary)")

        let trusted = try Self.evaluate("color", port: server.port, trusting: fixture.authority.certificate)
        #expect(trusted.status == 200, "\(trusted.summary)")
        #expect(trusted.json?["value"] == "blue")
    }

    @Test(
        "A certificate from an intermediate CA, served with the intermediate after it, is verified by a client that trusts only the root",
        .blocksItsThread)
    func certificateChain() throws {
        let intermediate = try fixture.authority.issueIntermediate()
        let leaf = try intermediate.issue(name: "leaf")
        let chain = try fixture.directory.write(
            "chain.pem",
            String(contentsOfFile: leaf.certificate, encoding: .utf8)
                + String(contentsOfFile: intermediate.certificate, encoding: .utf8))
        let chained = try fixture.serve(certificateFile: chain, keyFile: leaf.key)
        let answer = try Self.evaluate("color", port: chained.port, trusting: fixture.authority.certificate)
        #expect(answer.status == 200, "\(answer.summary)")
        // The leaf alone does not lead to the root: the client above was sent the intermediate.
        let alone = try fixture.serve(certificateFile: leaf.certificate, keyFile: leaf.key)
        let unverified = try Self.evaluate("color", port: alone.port, trusting: fixture.authority.certificate)
        #expect(unverified.exitStatus == 60, "\(unverified.summary)")
    }

    @Test("A change made with `ensign set` reaches an event stream read over TLS", .blocksItsThread)
    func eventStreamOverTLS() throws {
        let server = try fixture.serve()
        let authority = fixture.authority.certificate
        #expect(try Self.evaluate("color", port: server.port, trusting: authority).json?["value"] == "blue")

        let streamed = try fixture.directory.write("stream.out", "")
        let stream = try BuiltExecutable.start(
            executable: URL(fileURLWithPath: "/usr/bin/env"),
            [
                "curl", "--silent", "--show-error", "--no-buffer", "--cacert", authority,
                "https://127.0.0.1:\(server.port)/ofrep/v1/events",
            ], output: streamed, errors: streamed)
        defer {
            // SIGKILL, since curl would not take a SIGTERM: it starts with the signal mask of the
            // test runner's thread, which blocks it (see UnmaskedProcess in Tests/EnsignTests/Stress).
            kill(stream.processIdentifier, SIGKILL)
            _ = BuiltExecutable.waitForExit(of: stream, timeout: .seconds(15))
        }
        let text = { (try? String(contentsOfFile: streamed, encoding: .utf8)) ?? "" }
        _ = waitUntil("the event stream to open over TLS", timeout: .seconds(60)) {
            text().contains(": connected") || !stream.isRunning
        }
        #expect(text().contains(": connected"), "\(text())")

        let set = try BuiltExecutable.run("ensign", ["set", "color", "red", "--socket", server.socket])
        #expect(set.status == 0, "\(set.errors)")
        _ = waitUntil("the change to reach the stream", timeout: .seconds(60)) {
            text().contains("refetchEvaluation") || !stream.isRunning
        }
        #expect(text().contains("event: message"), "\(text())")
        #expect(text().contains(#""type":"refetchEvaluation""#), "\(text())")
        #expect(try Self.evaluate("color", port: server.port, trusting: authority).json?["value"] == "red")
    }

    @Test(
        "OpenFeature's Python OFREP provider trusting the CA evaluates every flag over https as `ensign eval` says; trusting another CA it gets errors and its defaults",
        .blocksItsThread)
    func pythonProvider() throws {
        try OpenFeatureClientTests.client.prepare(for: "The ensign serve TLS client test")
        let server = try fixture.serve()
        let flags = URL(fileURLWithPath: fixture.flagsFile)
        let baseURL = "https://127.0.0.1:\(server.port)"
        // requests, under the provider, trusts the CA bundle this variable names instead of its own.
        let lines = try OpenFeatureClientTests.evaluateWithPython(
            baseURL: baseURL, flags: flags, directory: fixture.directory,
            environment: ["REQUESTS_CA_BUNDLE": fixture.authority.certificate])
        #expect(lines.count == Self.flagKeys.count * OpenFeatureClientTests.contexts.count)
        let mismatches = try OpenFeatureClientTests.mismatches(lines, flags: flags)
        #expect(
            mismatches.isEmpty,
            Comment(rawValue: "\(mismatches.count) mismatches:\n" + mismatches.prefix(30).joined(separator: "\n")))
        #expect(lines.allSatisfy { $0["errorCode"] == .null }, "\(lines.map(\.jsonText))")
        let reasons = Set(lines.compactMap { $0["reason"]?.stringValue })
        #expect(reasons.isSuperset(of: ["STATIC", "TARGETING_MATCH"]))

        let other = try TestCertificateAuthority(in: fixture.directory, name: "other-ca")
        let refused = try OpenFeatureClientTests.evaluateWithPython(
            baseURL: baseURL, flags: flags, directory: fixture.directory,
            environment: ["REQUESTS_CA_BUNDLE": other.certificate])
        #expect(refused.count == lines.count)
        for line in refused {
            #expect(line["errorCode"] != .null, "\(line.jsonText)")
            #expect(line["value"] == line["default"], "\(line.jsonText)")
            #expect(
                line["errorMessage"]?.stringValue?.contains("CERTIFICATE_VERIFY_FAILED") == true, "\(line.jsonText)")
        }
    }

    @Test(
        "Plain HTTP to the TLS port: curl gets an error, a raw client a closed connection, each a failed handshake in the log; TLS clients are served after",
        .blocksItsThread)
    func plainHTTPIsRefused() throws {
        let server = try fixture.serve()
        let plain = try Self.curl(
            "http://127.0.0.1:\(server.port)/ofrep/v1/evaluate/flags/color", trusting: nil, ["--data", "{}"])
        // 52: an empty reply; 56: the connection reset. Not 0 (an answer) nor 28 (a time-out).
        #expect([52, 56].contains(plain.exitStatus), "\(plain.summary)")
        let raw = try RawHTTPClient(port: UInt16(server.port))
        try raw.send("POST /ofrep/v1/evaluate/flags/color HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n\r\n{}")
        #expect(raw.isClosedByServer(within: .seconds(60)))
        // One failed handshake per plain client: the bytes ended them, not a time-out. The log
        // writes the first and counts the second (at most one of libmicrohttpd's lines a second).
        let failedHandshakes = { server.errors.components(separatedBy: "handshake").count - 1 }
        let heldBack = "1 more messages from libmicrohttpd"
        _ = waitUntil("both failed handshakes in the log", timeout: .seconds(60)) {
            failedHandshakes() >= 2 || (failedHandshakes() == 1 && server.errors.contains(heldBack))
        }
        // Two lines when a second passed between them; one and the count otherwise.
        #expect(
            failedHandshakes() == 2 || (failedHandshakes() == 1 && server.errors.contains(heldBack)),
            "\(server.errors)")

        let trusted = try Self.evaluate("color", port: server.port, trusting: fixture.authority.certificate)
        #expect(trusted.status == 200, "\(trusted.summary)")
        #expect(trusted.json?["value"] == "blue")
    }

    @Test(
        "A client that stops half-way through the handshake holds no one up, and ensign serve's time-outs cut it",
        .blocksItsThread)
    func stalledHandshakeIsCut() throws {
        let server = try fixture.serve()
        let stalled = try RawHTTPClient(port: UInt16(server.port))
        try stalled.send(Self.halfClientHello)
        let answer = try Self.evaluate("color", port: server.port, trusting: fixture.authority.certificate)
        #expect(answer.status == 200, "\(answer.summary)")
        // ensign serve's inactivity time-out is 10 s, its idle time-out 30 s.
        #expect(stalled.isClosedByServer(within: .seconds(120)))
    }

    @Test(
        "Garbage is refused at once; 100 clients stalled in or before the handshake hold up no one: curl is answered while they stay connected",
        .blocksItsThread)
    func garbageAndStalledClients() throws {
        let tls = try fixture.serverTLS()
        let messages = Recorder<String>()
        // In this process, with time-outs of an hour: every close below is the server's answer
        // to what a client sent, and the stalled clients stay connected as long as the test needs.
        let harness = try OFREPServerTests.Harness { options in
            options.tls = tls
            options.idleTimeout = .seconds(3600)
            options.headerTimeout = .seconds(3600)
            options.requestTimeout = .seconds(3600)
            options.log = { messages.record($0) }
        }
        let port = Int(harness.port)

        let stalled = LoopbackCrowd()
        try stalled.connect(100, port: port, sending: "")
        for index in 50..<100 { try stalled.send(Self.halfClientHello, on: index) }
        let garbage = LoopbackCrowd()
        try garbage.connect(50, port: port, sending: "")
        var random = SplitMix64(seed: 20_240_611)
        for index in 0..<50 {
            // A first byte that is no TLS record type.
            try garbage.send([0] + (0..<63).map { _ in UInt8(truncatingIfNeeded: random.next()) }, on: index)
        }
        let refused = try garbage.pump(timeout: .seconds(60)) { _, isClosed in isClosed }
        #expect(refused == 50)
        // Said once, with a count of the rest: 50 failed handshakes must not write 50 lines.
        #expect(messages.values.contains { $0.contains("handshake") }, "\(messages.values.prefix(5))")
        #expect(messages.values.count < 50)
        #expect(
            waitUntil("the server to hold the 100 stalled connections alone", timeout: .seconds(60)) {
                harness.server.openConnectionCount == 100
            })

        for index in 0..<10 {
            let answer = try Self.evaluate("color", port: port, trusting: fixture.authority.certificate)
            #expect(answer.status == 200, "evaluation \(index): \(answer.summary)")
            #expect(answer.json?["value"] == "blue")
        }
        // Each curl's connection goes; the stalled ones are still there.
        #expect(
            waitUntil("the curl connections to close", timeout: .seconds(60)) {
                harness.server.openConnectionCount == 100
            })
        let closed = try stalled.pump(timeout: .milliseconds(200)) { _, isClosed in isClosed }
        #expect(closed == 0)
    }

    /// A certificate or key `ensign serve` must refuse at start, and what it must say.
    enum BadInput: CaseIterable, Sendable, CustomTestStringConvertible {
        case missingCertificate
        case keyOfAnotherCertificate
        case encryptedKey
        case encryptedTraditionalKey
        case derCertificate
        case certificateNotPEM
        case damagedCertificate
        case keyWithoutCertificate

        var testDescription: String {
            switch self {
            case .missingCertificate: "a certificate file that does not exist"
            case .keyOfAnotherCertificate: "the key of another certificate"
            case .encryptedKey: "an encrypted PKCS #8 key"
            case .encryptedTraditionalKey: "an encrypted traditional RSA key"
            case .derCertificate: "a DER certificate"
            case .certificateNotPEM: "a certificate file that is other text"
            case .damagedCertificate: "a PEM certificate whose base64 is damaged"
            case .keyWithoutCertificate: "--tls-key without --tls-cert"
            }
        }

        /// 2 for what the command line's own checks refuse; 1 for what the TLS library refuses
        /// at start.
        var status: Int32 {
            switch self {
            case .keyOfAnotherCertificate, .damagedCertificate: 1
            default: 2
            }
        }

        /// What standard error must say, all of it.
        var message: [String] {
            switch self {
            case .missingCertificate: ["--tls-cert: cannot read", "No such file or directory"]
            case .keyOfAnotherCertificate:
                ["--tls-cert/--tls-key: the TLS library refused the certificate and key", "do not match"]
            case .encryptedKey, .encryptedTraditionalKey: ["the key is encrypted"]
            case .derCertificate: ["--tls-cert:", "is binary, not PEM text", "openssl x509 -inform DER"]
            case .certificateNotPEM: ["the certificate is not PEM text"]
            case .damagedCertificate: ["--tls-cert/--tls-key: the TLS library refused the certificate and key"]
            case .keyWithoutCertificate: ["give both --tls-cert FILE and --tls-key FILE"]
            }
        }

        /// The TLS options, with the files they name made in `fixture`'s directory.
        func options(in fixture: Fixture) throws -> [String] {
            let (certificate, key) = (fixture.certificate.certificate, fixture.certificate.key)
            let path = { (name: String) in fixture.directory.path + "/" + name }
            switch self {
            case .missingCertificate:
                return ["--tls-cert", path("missing.crt"), "--tls-key", key]
            case .keyOfAnotherCertificate:
                return ["--tls-cert", certificate, "--tls-key", try fixture.authority.issue(name: "other").key]
            case .encryptedKey:
                try TestCertificate.openssl([
                    "pkey", "-in", key, "-aes256", "-passout", "pass:secret", "-out", path("encrypted.key"),
                ])
                return ["--tls-cert", certificate, "--tls-key", path("encrypted.key")]
            case .encryptedTraditionalKey:
                try TestCertificate.openssl([
                    "rsa", "-in", key, "-traditional", "-aes256", "-passout", "pass:secret", "-out",
                    path("encrypted.key"),
                ])
                return ["--tls-cert", certificate, "--tls-key", path("encrypted.key")]
            case .derCertificate:
                try TestCertificate.openssl(["x509", "-in", certificate, "-outform", "DER", "-out", path("server.der")])
                return ["--tls-cert", path("server.der"), "--tls-key", key]
            case .certificateNotPEM:
                return ["--tls-cert", fixture.flagsFile, "--tls-key", key]
            case .damagedCertificate:
                var lines = try String(contentsOfFile: certificate, encoding: .utf8).components(separatedBy: "\n")
                lines[3] = String(repeating: "!", count: lines[3].count)
                return [
                    "--tls-cert", try fixture.directory.write("damaged.crt", lines.joined(separator: "\n")),
                    "--tls-key", key,
                ]
            case .keyWithoutCertificate:
                return ["--tls-key", key]
            }
        }
    }

    @Test(
        "A bad certificate or key stops ensign serve at start with a message naming the problem", .blocksItsThread,
        arguments: BadInput.allCases)
    func badInputIsRefusedAtStart(_ input: BadInput) throws {
        // Given 60 s: a server that started anyway would run until killed, and the run throws.
        let result = try BuiltExecutable.run(
            "ensign",
            [
                "serve", "--flags", fixture.flagsFile, "--listen", "127.0.0.1:0", "--socket",
                fixture.directory.path + "/serve.sock",
            ] + input.options(in: fixture), timeout: .seconds(60))
        #expect(result.status == input.status, "\(result.errors)")
        for part in input.message {
            #expect(result.errors.contains(part), "\(result.errors)")
        }
        #expect(!result.output.contains("OFREP on"))
        // Not blamed on the address, as libmicrohttpd's failed start alone would suggest.
        #expect(!result.errors.contains("cannot listen"), "\(result.errors)")
    }
}
