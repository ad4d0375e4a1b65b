import Ensign
import EnsignJSON
import EnsignSupport
import EnsignTestSupport
import EnsignTestTraits
import Foundation
import Testing

@testable import EnsignControl

@Suite("Control server start and stop: sockets, directories, descriptors, threads")
struct LifecycleTests {
    @Test("The socket is <app>.<pid>.sock, mode 0600, in a 0700 directory created on demand")
    func socketAndDirectory() throws {
        let root = try TemporaryRuntimeDirectory()
        let directory = root.path + "/nested/run"
        let server = try ControlServer.start(
            context: try ControlFixtures.context(),
            options: ControlServerOptions(appName: "banking", runtimeDirectory: directory))
        defer { server.stop() }
        #expect(server.socketPath == "\(directory)/banking.\(getpid()).sock")
        #expect(try mode(of: server.socketPath) == 0o600)
        #expect(try mode(of: directory) == 0o700)
    }

    @Test("stop closes connections, removes the socket, and later connections fail")
    func stopRemovesSocket() throws {
        let harness = try ServerHarness()
        let raw = try harness.raw()
        #expect(try raw.request(#"{"id":1,"op":"status"}"#)?["ok"] == true)
        harness.server.stop()
        harness.server.stop()
        #expect(raw.isClosedByServer())
        #expect(!FileManager.default.fileExists(atPath: harness.server.socketPath))
        #expect(throws: ControlClientError.self) { try harness.client() }
    }

    @Test("Stopping a server leaves no descriptor and no thread behind (checked in a process of its own)")
    func noLeaks() throws {
        #if os(Linux)
            let directory = try TemporaryRuntimeDirectory()
            let (status, output) = try ControlProbe.run(["lifecycle", directory.path])
            #expect(status == 0)
            let counts = try JSONValue(jsonText: output)
            #expect(counts["descriptorsAfter"] == counts["descriptorsBefore"])
            #expect(counts["threadsAfter"] == counts["threadsBefore"])
            #expect((counts["serverThreadsWhileRunning"]?.intValue ?? 0) >= 1)
            #expect(counts["serverThreadsAfter"] == 0)
            #expect(counts["socketRemoved"] == true)
        #endif
    }

    @Test("Clients that come and go (status, a watch, its change) leave no heap behind in the server", .blocksItsThread)
    func visitsLeaveNoHeap() throws {
        let directory = try TemporaryRuntimeDirectory()
        let (status, output) = try ControlProbe.run(["heap", directory.path, "1000"])
        #expect(status == 0, "\(output)")
        let retained = output.split(separator: "\n").last { $0.hasPrefix("retained ") }
        let bytes = retained.flatMap { Int($0.split(separator: " ")[1]) }
        // A few bytes a visit are noise (allocator bookkeeping); a connection kept would be kilobytes.
        #expect(bytes.map { $0 <= 16 } == true, "\(output)")
    }

    @Test("A stale socket left by a dead process is replaced")
    func staleSocketReplaced() throws {
        let directory = try TemporaryRuntimeDirectory()
        let path = directory.path + "/testapp.\(getpid()).sock"
        let stale = try UnixSocket.listen(at: path)
        _ = systemClose(stale)
        #expect(FileManager.default.fileExists(atPath: path))
        let server = try ControlServer.start(
            context: try ControlFixtures.context(),
            options: ControlServerOptions(appName: "testapp", runtimeDirectory: directory.path))
        defer { server.stop() }
        #expect(try ControlClient.connect(to: .socket(path)).server.app == "testapp")
    }

    @Test("A second server on a live socket's path is refused and the first keeps serving")
    func liveSocketKept() throws {
        let harness = try ServerHarness()
        #expect(throws: ControlServerError.socketInUse(path: harness.server.socketPath)) {
            try ControlServer.start(
                context: harness.context,
                options: ControlServerOptions(appName: "other", socketPath: harness.server.socketPath))
        }
        #expect(try harness.client().status().server.app == "testapp")
    }

    @Test("A regular file at the socket path is left alone")
    func regularFileKept() throws {
        let directory = try TemporaryRuntimeDirectory()
        let path = directory.path + "/notes.sock"
        try "keep me".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: ControlServerError.pathOccupied(path: path)) {
            try ControlServer.start(
                context: try ControlFixtures.context(), options: ControlServerOptions(appName: "x", socketPath: path))
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me")
    }

    @Test("A runtime directory open to other users is refused with how to fix it")
    func insecureDirectory() throws {
        let directory = try TemporaryRuntimeDirectory()
        chmod(directory.path, 0o755)
        #expect {
            try ControlServer.start(
                context: try ControlFixtures.context(),
                options: ControlServerOptions(appName: "x", runtimeDirectory: directory.path))
        } throws: { error in
            guard case .runtimeDirectory(let problem) = error as? ControlServerError else { return false }
            return problem.problem.contains("chmod 700")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test("A runtime directory that is a symbolic link, or belongs to another user, is refused")
    func foreignDirectory() throws {
        let root = try TemporaryRuntimeDirectory()
        let real = root.path + "/real"
        mkdir(real, 0o700)
        let link = root.path + "/link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        #expect(throws: RuntimeDirectoryError.self) { try ControlRuntimeDirectory.prepare(link) }
        if geteuid() == 0 {
            chown(real, 65534, 65534)
            #expect {
                try ControlRuntimeDirectory.prepare(real)
            } throws: { error in
                (error as? RuntimeDirectoryError)?.problem.contains("belongs to uid 65534") == true
            }
        }
    }

    @Test("App names that cannot name a socket are refused", arguments: ["", ".hidden", "a/b", "sp ace"])
    func invalidAppName(name: String) throws {
        let directory = try TemporaryRuntimeDirectory()
        #expect(throws: ControlServerError.invalidAppName(name)) {
            try ControlServer.start(
                context: try ControlFixtures.context(),
                options: ControlServerOptions(appName: name, runtimeDirectory: directory.path))
        }
    }

    @Test("A socket path too long for Unix sockets is refused with a hint")
    func pathTooLong() throws {
        let directory = try TemporaryRuntimeDirectory()
        let path = directory.path + "/" + String(repeating: "x", count: 120) + ".sock"
        #expect {
            try ControlServer.start(
                context: try ControlFixtures.context(), options: ControlServerOptions(appName: "x", socketPath: path))
        } throws: { error in
            "\(error)".contains("ENSIGN_RUNTIME_DIR")
        }
    }

    private func mode(of path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? Int) ?? -1
    }
}
