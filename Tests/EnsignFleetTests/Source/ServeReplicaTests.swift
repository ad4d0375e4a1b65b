import Ensign
import EnsignFleet
import EnsignOFREP
import EnsignServe
import EnsignTestSupport
import Foundation
import Testing

extension EtcdIntegrationTests {
    /// `ensign serve` replicas on one etcd fleet behind nginx as a round-robin load balancer,
    /// as a team runs them: a client keeps getting 304s whichever replica answers, an `ensign
    /// fleet set` reaches event streams on every replica with the same event id, and a stream
    /// that reconnects to another replica is understood there.
    @Suite("ensign serve replicas behind a load balancer", .serialized)
    struct ServeReplicaTests {
        static let flags = """
            flags:
              list.pageSize: { type: int, default: 20, minimum: 5, maximum: 100 }
            \(BannerFlag.yaml)
            """
        static let bulkBody = #"{"context":{"targetingKey":"user-7","country":"FR"}}"#

        @Test(
            "Three replicas on one etcd behind nginx: 304s across replicas; a fleet write reaches every replica's streams"
        )
        func replicasAgree() throws {
            try EtcdTestBed.run(prefix: "serve-replicas") { bed in
                let flagsFile = try bed.directory.write("flags.yaml", Self.flags)
                let replicas = try (0..<3).map { _ in
                    try ServeProcess(
                        flags: flagsFile, arguments: ["--etcd", bed.firstClientURL, "--etcd-prefix", bed.prefix])
                }
                let balancer = try NginxProcess { port in
                    """
                    upstream replicas {
                        \(replicas.map { "server 127.0.0.1:\($0.port);" }.joined(separator: "\n        "))
                        keepalive 16;
                    }
                    server {
                        listen 127.0.0.1:\(port);
                        location / {
                            proxy_pass http://replicas;
                            proxy_http_version 1.1;
                            proxy_set_header Connection "";
                            proxy_read_timeout 300s;
                        }
                    }
                    """
                }

                // Every replica computes the same tag for the same context.
                let tags = try replicas.map { try Curl.bulk(port: $0.port, body: Self.bulkBody).header("etag") }
                #expect(Set(tags).count == 1 && tags[0] != nil, "tags by replica: \(tags)")
                let tag = try #require(tags[0])

                // Through the balancer, round robin: every request after the first is a 304.
                let first = try Curl.bulk(port: balancer.port, body: Self.bulkBody)
                #expect(first.status == 200)
                #expect(first.header("etag") == tag)
                for round in 0..<6 {
                    let revalidated = try Curl.bulk(port: balancer.port, body: Self.bulkBody, ifNoneMatch: tag)
                    #expect(revalidated.status == 304, "round \(round): \(revalidated.status) \(revalidated.body)")
                }

                // A stream on every replica, and two through the balancer.
                let streams =
                    try replicas.map { try Curl.Stream(port: $0.port) }
                    + (0..<2).map { _ in try Curl.Stream(port: balancer.port) }
                for stream in streams { #expect(stream.waitFor(": connected"), "\(stream.text)") }

                let set = try EnsignProcess.run(["fleet", "set", "list.pageSize", "60"] + bed.commandLineOptions)
                #expect(set.status == 0, "\(set.errors)")
                for stream in streams {
                    #expect(
                        stream.waitFor("refetchEvaluation"), "a stream did not hear the fleet write: \(stream.text)")
                }
                // The same event id from every replica: the configuration's digest.
                let ids = Set(streams.compactMap { $0.lastEventID })
                #expect(ids.count == 1, "event ids: \(ids)")

                // The old tag is stale everywhere; the new one is the same everywhere, and 304s follow.
                let changed = try Curl.bulk(port: balancer.port, body: Self.bulkBody, ifNoneMatch: tag)
                #expect(changed.status == 200)
                #expect(changed.body.contains(#""key":"list.pageSize","reason":"STATIC","value":60"#))
                let newTag = try #require(changed.header("etag"))
                #expect(newTag != tag)
                let newTags = try replicas.map { try Curl.bulk(port: $0.port, body: Self.bulkBody).header("etag") }
                #expect(Set(newTags) == [newTag], "new tags by replica: \(newTags)")
                for round in 0..<6 {
                    let revalidated = try Curl.bulk(port: balancer.port, body: Self.bulkBody, ifNoneMatch: newTag)
                    #expect(revalidated.status == 304, "round \(round) after the change: \(revalidated.status)")
                }

                // A client that reconnects to another replica with the current id gets no event at
                // once; with the old one, it does.
                let currentID = try #require(ids.first)
                let resumed = try Curl.Stream(port: replicas[2].port, lastEventID: currentID)
                #expect(resumed.waitFor(": connected"))
                #expect(!resumed.text.contains("refetchEvaluation"))
                let behind = try Curl.Stream(port: replicas[1].port, lastEventID: "0000000000000000")
                #expect(behind.waitFor("refetchEvaluation"))
                #expect(balancer.errorLog.isEmpty || !balancer.errorLog.contains("[error]"), "\(balancer.errorLog)")
            }
        }
    }
}

/// curl, the client nobody here wrote, for requests through nginx and to each replica.
enum Curl {
    struct Response {
        var status: Int
        var headers: [String: String]
        var body: String

        func header(_ name: String) -> String? { headers[name.lowercased()] }
    }

    /// A bulk evaluation, revalidated when `ifNoneMatch` is given.
    static func bulk(port: Int, body: String, ifNoneMatch: String? = nil) throws -> Response {
        var arguments = [
            "-sS", "-i", "--max-time", "30", "-X", "POST", "-H", "Content-Type: application/json", "--data", body,
        ]
        if let ifNoneMatch { arguments += ["-H", "If-None-Match: \(ifNoneMatch)"] }
        let result = try BuiltExecutable.run(
            executable: URL(fileURLWithPath: "/usr/bin/curl"),
            arguments + ["http://127.0.0.1:\(port)/ofrep/v1/evaluate/flags"])
        guard result.status == 0 else { throw EtcdTestError("curl failed (\(result.status)): \(result.errors)") }
        return parse(result.output)
    }

    static func parse(_ text: String) -> Response {
        let parts = text.components(separatedBy: "\r\n\r\n")
        let head = parts.first ?? ""
        var lines = head.components(separatedBy: "\r\n")
        let status = Int(lines.removeFirst().split(separator: " ").dropFirst().first ?? "") ?? 0
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return Response(status: status, headers: headers, body: parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    /// An event stream read by `curl -N` into a file.
    final class Stream {
        private let process: Process
        private let directory: TemporaryDirectory
        private let path: String

        init(port: Int, lastEventID: String? = nil) throws {
            directory = try TemporaryDirectory()
            path = try directory.write("stream", "")
            let errors = try directory.write("errors", "")
            var arguments = ["-sS", "-N", "--max-time", "300"]
            if let lastEventID { arguments += ["-H", "Last-Event-ID: \(lastEventID)"] }
            process = try BuiltExecutable.start(
                executable: URL(fileURLWithPath: "/usr/bin/curl"),
                arguments + ["http://127.0.0.1:\(port)/ofrep/v1/events"], output: path, errors: errors)
        }

        deinit {
            // SIGKILL: curl has nothing to clean up, and a test thread may run with SIGTERM
            // blocked, a mask the child inherits.
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            BuiltExecutable.waitForExitOrKill(process, timeout: .seconds(5))
        }

        var text: String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

        /// The id of the last event received.
        var lastEventID: String? {
            text.components(separatedBy: "\n").last { $0.hasPrefix("id: ") }.map { String($0.dropFirst(4)) }
        }

        /// Waits until the stream has received `marker` (a generous minute).
        func waitFor(_ marker: String) -> Bool {
            waitUntil("the stream to receive '\(marker)'", timeout: .seconds(60)) { text.contains(marker) }
        }
    }
}

extension EtcdIntegrationTests.ServeReplicaTests {
    @Test("/readyz: ready while the fleet store is reachable; while it is not, ready for the grace period, then 503")
    func readinessFollowsTheFleet() throws {
        let cluster = try EtcdCluster()
        defer { cluster.stop() }
        let context = try AppContext(definitions: bankDefinitions)
        let source = try EtcdFleetSource.start(
            context: context, configuration: testConfiguration(cluster.clientURLs, prefix: uniquePrefix("readyz")))
        defer { source.stop() }
        var options = OFREPServerOptions()
        options.listenAddress = ListenAddress(host: "127.0.0.1", port: 0)
        options.fleetGracePeriod = .seconds(2)
        options.raisesDescriptorLimit = false
        let server = try OFREPServer.start(service: OFREPService(context: context), options: options)
        defer { server.stop() }
        let port = Int(server.address.port)
        #expect(waitUntil("the fleet to be reached") { context.status.fleet?.isReachable == true })
        let ready = try Curl.get(port: port, path: "/readyz")
        #expect(ready.status == 200, "\(ready.body)")
        #expect(ready.body.contains(#""reachable":true"#))

        cluster.stop()
        #expect(
            waitUntil("the fleet to be unreachable", timeout: .seconds(30)) {
                context.status.fleet?.isReachable == false
            })
        // Within the grace period: the last good fleet layer is served.
        let grace = try Curl.get(port: port, path: "/readyz")
        #expect(grace.status == 200 || grace.body.contains("unreachable for over"), "\(grace.body)")
        let notReady = waitUntil("readyz to say 503", timeout: .seconds(60)) {
            (try? Curl.get(port: port, path: "/readyz").status) == 503
        }
        #expect(notReady)
        #expect(try Curl.get(port: port, path: "/readyz").body.contains("unreachable for over"))
        // Liveness is another matter.
        #expect(try Curl.get(port: port, path: "/healthz").status == 200)
    }
}

extension Curl {
    /// A GET.
    static func get(port: Int, path: String) throws -> Response {
        let result = try BuiltExecutable.run(
            executable: URL(fileURLWithPath: "/usr/bin/curl"),
            ["-sS", "-i", "--max-time", "30", "http://127.0.0.1:\(port)\(path)"])
        guard result.status == 0 else { throw EtcdTestError("curl failed (\(result.status)): \(result.errors)") }
        return parse(result.output)
    }
}
