import EnsignTestSupport
import EnsignTestTraits
import Foundation
import Testing

@testable import Ensign
@testable import EnsignRemote

/// The libcurl transport over https: `ensign serve` behind a real TLS terminator (Python's
/// `ssl`) whose certificate only the configuration's CA file vouches for.
@Suite("OFREP remote source over https on libcurl")
struct CurlTransportTests {
    @Test(
        "Trusting the CA file, the source follows the event stream over TLS: a change arrives without polling",
        .blocksItsThread)
    func followsStreamsOverTLS() throws {
        let served = try ServedBehindTLS()
        defer { served.stop() }
        // No polling: a change can only come through the event stream.
        var configuration = testConfiguration(poll: nil, baseURL: "https://127.0.0.1:\(served.proxy.port)")
        configuration.caFile = served.certificate.certificate
        let context = try AppContext(definitions: appDefinitions)
        let source = try OFREPRemoteSource(configuration: configuration)
        context.attach(source)
        defer { source.stop() }
        #expect(source.waitUntilStreaming(timeout: .seconds(20)), "the source follows the stream over https")
        #expect(context.value(forKeyNamed: "list.pageSize") == 30)

        let set = try served.server.set("list.pageSize", "55")
        #expect(set.status == 0, "\(set.errors)")
        #expect(
            waitUntil("the change over the stream", timeout: .seconds(10)) {
                context.value(forKeyNamed: "list.pageSize") == 55
            })
        #expect(served.proxy.lines.contains { $0.hasPrefix("HANDSHAKE TLS") }, "through TLS: \(served.proxy.lines)")

        // More changes, each awaited: every one arrives, and how long they took is printed for
        // the article (a figure, not a limit: the machine is shared).
        var delays: [Duration] = []
        for value in 56..<76 {
            let start = ContinuousClock.now
            #expect(try served.server.set("list.pageSize", String(value)).status == 0)
            #expect(waitUntil("change \(value)") { context.value(forKeyNamed: "list.pageSize") == .int(value) })
            delays.append(ContinuousClock.now - start)
        }
        delays.sort()
        print("remote over https: ensign set → the app's value, p50 \(delays[delays.count / 2]), max \(delays.last!)")
        let stopped = ContinuousClock.now
        source.stop()
        let stopping = ContinuousClock.now - stopped
        print("remote over https: stop() returned after \(stopping), the event stream closed")
        #expect(stopping < .seconds(1), "stop() ends the stream at once")
    }

    @Test(
        "Without the CA file the server's certificate is not trusted: the status says so, and nothing is read",
        .blocksItsThread)
    func untrusted() throws {
        let served = try ServedBehindTLS()
        defer { served.stop() }
        let context = try AppContext(definitions: appDefinitions)
        let source = try OFREPRemoteSource(
            configuration: testConfiguration(poll: nil, baseURL: "https://127.0.0.1:\(served.proxy.port)"))
        context.attach(source)
        defer { source.stop() }
        #expect(
            waitUntil("the TLS refusal", timeout: .seconds(10)) {
                context.status.fleet?.lastError?.contains("not trusted") == true
            }, "\(String(describing: context.status.fleet?.lastError))")
        #expect(context.status.fleet?.isReachable == false)
    }

    @Test("A CA file that cannot be read is refused when the source is made, naming the file")
    func unreadableCAFile() {
        var configuration = testConfiguration(baseURL: "https://127.0.0.1:1")
        configuration.caFile = "/nonexistent/ca.pem"
        #expect {
            _ = try OFREPRemoteSource(configuration: configuration)
        } throws: { error in
            "\(error)".contains("/nonexistent/ca.pem") && "\(error)".contains("cannot be read")
        }
    }
}
