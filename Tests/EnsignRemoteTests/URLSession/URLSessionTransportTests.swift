import EnsignTestSupport
import EnsignTestTraits
import Foundation
import Testing

@testable import Ensign
@testable import EnsignRemote
@testable import EnsignRemoteURLSession

/// The `URLSession` transport against peers it does not control: `ensign serve` behind a real
/// TLS terminator (Python's `ssl`), trusted and not, a server that redirects to steal
/// credentials, and one that never answers.
@Suite("OFREP remote source over URLSession")
struct URLSessionTransportTests {
    @Test("Over https with a trusted certificate, values and live changes arrive through TLS", .blocksItsThread)
    func trustedTLS() throws {
        let served = try ServedBehindTLS()
        defer { served.stop() }
        let (server, certificate, proxy) = (served.server, served.certificate, served.proxy)

        // FoundationNetworking trusts the system bundle alone; the probe runs where that
        // bundle is the test certificate (a private mount namespace), so nothing on the
        // machine trusts it but the probe.
        let output = try served.server.directory.write("probe.out", "")
        let probe = try BuiltExecutable.start(
            executable: URL(fileURLWithPath: "/usr/bin/unshare"),
            [
                "--mount", "/bin/sh", "-c",
                #"mount --bind "$1" /etc/ssl/certs/ca-certificates.crt && exec "$2" read-https "$3""#, "sh",
                certificate.certificate, BuiltExecutable.url(named: "EnsignRemoteProbe").path,
                "https://127.0.0.1:\(proxy.port)",
            ], output: output, errors: output)
        defer { _ = BuiltExecutable.waitForExitOrKill(probe, timeout: .seconds(1)) }
        let probeOutput = { (try? String(contentsOfFile: output, encoding: .utf8)) ?? "" }
        #expect(
            waitUntil("the probe reading over https", timeout: .seconds(30)) {
                probeOutput().contains("list.pageSize=") || !probe.isRunning
            })
        let mode = RemoteTransportKind.urlSession.followsEventStreams ? "STREAMING" : "POLLING"
        #expect(probeOutput().contains("\(mode) list.pageSize=30"), "\(probeOutput())")

        let set = try server.set("list.pageSize", "55")
        #expect(set.status == 0, "\(set.errors)")
        #expect(BuiltExecutable.waitForExit(of: probe, timeout: .seconds(30)))
        #expect(probe.terminationStatus == 0)
        #expect(probeOutput().contains("CHANGED list.pageSize=55"), "\(probeOutput())")
        #expect(proxy.lines.contains { $0.hasPrefix("HANDSHAKE TLS") }, "the requests went through TLS: \(proxy.lines)")
    }

    @Test(
        "A certificate the system does not trust fails the connection; the values stay and the status says why",
        .blocksItsThread)
    func untrustedCertificate() throws {
        let served = try ServedBehindTLS()
        defer { served.stop() }
        let proxy = served.proxy

        let context = try AppContext(definitions: appDefinitions)
        let before = context.value(forKeyNamed: "list.pageSize")
        let source = try RemoteTransportKind.urlSession.makeSource(
            testConfiguration(baseURL: "https://127.0.0.1:\(proxy.port)"))
        context.attach(source)
        defer { source.stop() }
        #expect(waitUntil("the failure reported", timeout: .seconds(20)) { context.status.fleet?.isReachable == false })
        #expect(!source.isSynced)
        #expect(context.value(forKeyNamed: "list.pageSize") == before, "nothing from an unverified server is used")
        let reason = source.lastError ?? ""
        #expect(reason.lowercased().contains("certificate") || reason.contains("TLS"), "\(reason)")
        // The client gives up first; the proxy sees the refused handshake a moment later.
        #expect(
            waitUntil("the proxy saw the handshake fail", timeout: .seconds(10)) {
                proxy.lines.contains { $0.hasPrefix("HANDSHAKE FAILED") }
            }, "\(proxy.lines)")
        #expect(!proxy.lines.contains { $0.hasPrefix("HANDSHAKE TLS") }, "no request was sent")
    }

    @Test(
        "A redirect is not followed, so credentials never reach where it points", .blocksItsThread,
        arguments: RemoteTransportKind.allCases)
    func redirectsNotFollowed(transport: RemoteTransportKind) throws {
        let redirector = try PythonPeer(.redirector)
        defer { redirector.stop() }
        var configuration = testConfiguration(baseURL: "http://127.0.0.1:\(redirector.port)")
        configuration.headers = ["Authorization": "Bearer secret"]
        let context = try AppContext(definitions: appDefinitions)
        let source = try transport.makeSource(configuration)
        context.attach(source)
        defer { source.stop() }
        #expect(waitUntil("the 307 reported", timeout: .seconds(20)) { (source.lastError ?? "").contains("307") })
        #expect(
            waitUntil("a second request", timeout: .seconds(20)) {
                redirector.lines.filter { $0.hasPrefix("REQUEST") }.count >= 2
            })
        #expect(!redirector.lines.contains { $0.hasPrefix("STOLEN") }, "\(redirector.lines)")
        #expect(!source.isSynced)
    }

    @Test(
        "Stopping the source while a redirect is being refused never traps (FoundationNetworking's cancel race)",
        .blocksItsThread)
    func stopDuringRedirects() throws {
        let redirector = try PythonPeer(.redirector)
        defer { redirector.stop() }
        var configuration = testConfiguration(baseURL: "http://127.0.0.1:\(redirector.port)")
        configuration.initialBackoff = .milliseconds(1)
        configuration.maximumBackoff = .milliseconds(2)
        var random = SplitMix64(seed: 0x5_70B)
        for round in 0..<60 {
            let context = try AppContext(definitions: appDefinitions)
            let source = try RemoteTransportKind.urlSession.makeSource(configuration)
            context.attach(source)
            // Stop at a different moment each round: before, during and after redirects.
            usleep(UInt32(random.next(below: 20_000)))
            source.stop()
            #expect(!source.isSynced, "round \(round)")
        }
        #expect(redirector.lines.contains { $0.hasPrefix("REQUEST") })
        #expect(!redirector.lines.contains { $0.hasPrefix("STOLEN") })
    }

    @Test("A server that never answers times the request out, and stop() does not wait for it", .blocksItsThread)
    func silentServer() throws {
        let silent = try PythonPeer(.silent)
        defer { silent.stop() }

        var configuration = testConfiguration(baseURL: "http://127.0.0.1:\(silent.port)")
        configuration.requestTimeout = .milliseconds(500)
        let context = try AppContext(definitions: appDefinitions)
        let source = try RemoteTransportKind.urlSession.makeSource(configuration)
        context.attach(source)
        #expect(waitUntil("the time-out", timeout: .seconds(20)) { (source.lastError ?? "").contains("timed out") })
        source.stop()

        // A request with an hour to go: stop() cancels it instead of waiting.
        configuration.requestTimeout = .seconds(3600)
        let waiting = try RemoteTransportKind.urlSession.makeSource(configuration)
        let other = try AppContext(definitions: appDefinitions)
        let connections = silent.lines.filter { $0 == "CONNECTED" }.count
        other.attach(waiting)
        #expect(
            waitUntil("the request sent", timeout: .seconds(20)) {
                silent.lines.filter { $0 == "CONNECTED" }.count > connections
            })
        let stopping = ContinuousClock.now
        waiting.stop()
        #expect(ContinuousClock.now - stopping < .seconds(30), "stop() interrupted the hour-long wait")
    }
}
