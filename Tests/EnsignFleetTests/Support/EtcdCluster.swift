import EnsignTestSupport
import Foundation
import Testing

@testable import EnsignFleet

/// Real etcd members on loopback for integration tests: temporary data directories, random
/// free ports, fast elections; stopped (and their directories removed) by ``stop()``.
final class EtcdCluster: @unchecked Sendable {
    // @unchecked Sendable: the members' processes are only started, signalled and waited for
    // from the test that owns the cluster; `members` itself never changes after init.

    /// The `etcd` binary, when installed (`scripts/setup` installs Debian's `etcd-server`).
    static let executable = findExecutable("etcd")

    /// `etcdctl` (Debian's `etcd-client`), for tests that administer the cluster.
    static let etcdctl = findExecutable("etcdctl")

    /// The path of `name` on `$PATH` (or in /usr/bin, /usr/local/bin), if it is installed.
    private static func findExecutable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") + ["/usr/bin", "/usr/local/bin"] {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Runs `etcdctl` against the cluster; returns its output, or throws with it when it fails.
    @discardableResult
    func etcdctl(_ arguments: [String]) throws -> String {
        let options = ["--endpoints=\(clientURLs.joined(separator: ","))"] + (tls?.commandLineOptions ?? [])
        let result = try BuiltExecutable.run(
            executable: URL(fileURLWithPath: Self.etcdctl!), options + arguments, environment: ["ETCDCTL_API": "3"])
        guard result.status == 0 else {
            throw EtcdTestError("etcdctl \(arguments) failed: \(result.output)\(result.errors)")
        }
        return result.output
    }

    /// What to do when etcd is missing: these tests need it and fail (not skip) without it.
    static let missingMessage =
        "the etcd binary is not installed; run scripts/setup --with-test-tools (it installs Debian's etcd-server"
        + " and etcd-client)"

    /// One member: its ports, data directory and process.
    final class Member: @unchecked Sendable {
        // @unchecked Sendable: `process` is replaced only by start/kill/restart, called from
        // the owning test's thread.
        let name: String
        let clientPort: Int
        let peerPort: Int
        var process: Process?

        init(name: String, clientPort: Int, peerPort: Int) {
            self.name = name
            self.clientPort = clientPort
            self.peerPort = peerPort
        }

        /// Whether clients reach it over TLS (the cluster's ``EtcdCluster/TLS``).
        var isTLS = false

        var clientURL: String { "\(isTLS ? "https" : "http")://127.0.0.1:\(clientPort)" }
        var peerURL: String { "http://127.0.0.1:\(peerPort)" }
        var isRunning: Bool { process?.isRunning == true }
    }

    /// Where data directories go: memory-backed `/dev/shm` when there is one (etcd fsyncs
    /// every write; on a shared disk that, not Ensign, would dominate the tests' time), else
    /// the temporary directory.
    static let scratchDirectory: URL = {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: "/dev/shm", isDirectory: &isDirectory), isDirectory.boolValue,
            access("/dev/shm", W_OK) == 0
        {
            return URL(fileURLWithPath: "/dev/shm")
        }
        return FileManager.default.temporaryDirectory
    }()

    /// A cluster's TLS for clients, as production etcd runs it: the members' certificate, and
    /// `--client-cert-auth` with the authority whose client certificates it accepts. Peers
    /// speak plain HTTP on loopback.
    struct TLS: Sendable {
        /// The authority that issued the members' certificate; clients trust it.
        var authority: TestCertificateAuthority
        /// The members' certificate (server and client use: a member is a client of its own gateway).
        var member: TestCertificate
        /// A client certificate the cluster accepts, for the apps, the tests' probes and etcdctl.
        var client: TestCertificate

        /// A new authority in `directory`, and the certificates it issues.
        init(in directory: TemporaryDirectory) throws {
            authority = try TestCertificateAuthority(in: directory)
            member = try authority.issue(name: "etcd", usage: "serverAuth,clientAuth")
            // No common name: with authentication enabled, etcd's JSON gateway refuses a client
            // certificate that has one ("CommonName of client sending a request against gateway
            // will be ignored"), since the gateway would not use it as the user.
            client = try authority.issueClient(commonName: nil)
        }

        /// `--cacert`, `--cert` and `--key` for the authority and the client certificate, as
        /// `etcdctl` and `ensign` take them.
        var commandLineOptions: [String] {
            ["--cacert", authority.certificate, "--cert", client.certificate, "--key", client.key]
        }

        /// Sets a configuration's TLS files to trust the authority and present the client certificate.
        func configure(_ configuration: inout EtcdConfiguration) {
            configuration.caFile = authority.certificate
            configuration.certificateFile = client.certificate
            configuration.keyFile = client.key
        }
    }

    let members: [Member]
    let root: URL
    let tls: TLS?
    private let initialCluster: String

    /// Starts `size` members (speaking TLS to clients when `tls` is given) and waits until the
    /// cluster serves reads.
    init(size: Int = 1, tls: TLS? = nil) throws {
        self.tls = tls
        guard Self.executable != nil, Self.etcdctl != nil else { throw EtcdTestError(Self.missingMessage) }
        root = Self.scratchDirectory.appendingPathComponent("ensign-etcd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        var ports = Set<Int>()
        while ports.count < size * 2 { ports.insert(try Loopback.freePort()) }
        let sorted = Array(ports)
        members = (0..<size).map { index in
            Member(name: "n\(index)", clientPort: sorted[index * 2], peerPort: sorted[index * 2 + 1])
        }
        initialCluster = members.map { "\($0.name)=\($0.peerURL)" }.joined(separator: ",")
        for member in members { member.isTLS = tls != nil }
        for member in members { try start(member) }
        try waitUntilServing(timeout: .seconds(30))
    }

    var clientURLs: [String] { members.map(\.clientURL) }

    func dataDirectory(of member: Member) -> URL { root.appendingPathComponent(member.name) }

    /// Starts (or restarts, with its data) `member`.
    func start(_ member: Member) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executable!)
        process.arguments = [
            "--name", member.name, "--data-dir", dataDirectory(of: member).path,
            "--listen-client-urls", member.clientURL, "--advertise-client-urls", member.clientURL,
            "--listen-peer-urls", member.peerURL, "--initial-advertise-peer-urls", member.peerURL,
            "--initial-cluster", initialCluster, "--initial-cluster-state", "new",
            "--initial-cluster-token", root.lastPathComponent,
            "--heartbeat-interval", "50", "--election-timeout", "500",
            "--logger", "zap", "--log-level", "error",
        ]
        if let tls {
            process.arguments! += [
                "--cert-file", tls.member.certificate, "--key-file", tls.member.key, "--client-cert-auth",
                "--trusted-ca-file", tls.authority.certificate,
            ]
        }
        let log = root.appendingPathComponent("\(member.name).log")
        if !FileManager.default.fileExists(atPath: log.path) {
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        }
        let handle = try FileHandle(forWritingTo: log)
        handle.seekToEndOfFile()
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        try handle.close()
        member.process = process
    }

    /// Kills `member` with SIGKILL, as a crash would, and waits for it to end.
    func kill(_ member: Member) {
        guard let process = member.process, process.isRunning else { return }
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Stops `member` with SIGSTOP, as a frozen process or a host cut off without a reset looks
    /// to its clients: connections stay open, and nothing answers.
    func freeze(_ member: Member) {
        guard let process = member.process, process.isRunning else { return }
        Foundation.kill(process.processIdentifier, SIGSTOP)
    }

    /// Lets a frozen member run again (SIGCONT); harmless on one that is not frozen.
    func thaw(_ member: Member) {
        guard let process = member.process, process.isRunning else { return }
        Foundation.kill(process.processIdentifier, SIGCONT)
    }

    /// Restarts a killed member on the same ports and data directory and waits until it serves.
    func restart(_ member: Member) throws {
        try start(member)
        try waitUntilServing(member, timeout: .seconds(30))
    }

    /// Stops every member and removes the data. Members are killed: a graceful stop of a
    /// leader that lost a peer waits seconds to hand over its leadership, and the data goes anyway.
    func stop() {
        for member in members { kill(member) }
        try? FileManager.default.removeItem(at: root)
    }

    deinit { stop() }

    /// A client of the running members (or of `endpoints`) under `prefix`.
    func client(prefix: String = "/test/", endpoints: [String]? = nil) throws -> EtcdClient {
        var configuration = EtcdConfiguration(endpoints: endpoints ?? clientURLs, keyPrefix: prefix)
        // Short: a write proposed just as its member's leader dies is held until this timeout.
        configuration.requestTimeout = .seconds(1)
        tls?.configure(&configuration)
        return try EtcdClient(configuration: configuration)
    }

    /// Waits until every running member answers a linearizable read.
    func waitUntilServing(timeout: Duration) throws {
        for member in members where member.isRunning { try waitUntilServing(member, timeout: timeout) }
    }

    private func waitUntilServing(_ member: Member, timeout: Duration) throws {
        var configuration = EtcdConfiguration(endpoints: [member.clientURL], keyPrefix: "/health/")
        tls?.configure(&configuration)
        configuration.requestTimeout = .milliseconds(500)
        configuration.dialTimeout = .milliseconds(200)
        let client = try EtcdClient(configuration: configuration)
        var lastError: (any Error)?
        let serving = try waitUntil(
            "etcd member \(member.name) to serve", timeout: timeout, pollingEvery: .milliseconds(20)
        ) {
            do {
                _ = try client.get("/health/probe")
                return true
            } catch EtcdError.server(_, let code, _) where [3, 7, 16].contains(code) {
                // Refused for want of credentials (authentication is enabled): it serves.
                return true
            } catch {
                lastError = error
                guard member.isRunning else {
                    throw EtcdTestError("etcd member \(member.name) exited: \(log(of: member))")
                }
                return false
            }
        }
        guard !serving else { return }
        throw EtcdTestError(
            "etcd member \(member.name) did not serve within \(timeout): \(String(describing: lastError))")
    }

    /// The member's log, for failure messages.
    func log(of member: Member) -> String {
        (try? String(contentsOf: root.appendingPathComponent("\(member.name).log"), encoding: .utf8)) ?? ""
    }
}

/// A failure in the test harness itself.
struct EtcdTestError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
