// A helper process for the control server's tests and the security suite. Its modes:
//
//   EnsignControlProbe connect-as UID SOCKET
//     Run as root: drops to UID (and its group), connects to SOCKET, sends a hello, and
//     prints the first line it receives, or `connect failed: errno N`. Exit status 0 when a
//     line came back, 3 when the connection failed, 4 when privileges could not be dropped.
//
//   EnsignControlProbe heap RUNTIME_DIR COUNT
//     Serves COUNT visiting clients (status, a watch that receives one change, then both
//     closed) while a writer stays connected, and prints `retained BYTES per visit`: the heap
//     each visit left behind, after a warm-up (see visitHeap).
//
//   EnsignControlProbe lifecycle RUNTIME_DIR
//     Counts this process's descriptors and threads, starts a server, uses it from three
//     clients (one watching, one sending a bad request, one leaving abruptly), stops it,
//     and prints the counts before and after as JSON. A process of its own, so that no
//     other test opens descriptors or threads meanwhile.
//
//   EnsignControlProbe plant-as UID GID STEP...
//   EnsignControlProbe listen-as UID GID SOCKET
//     Run as root: drop to UID:GID and prepare files, directories and links, or listen on a
//     socket and report who connected, as that user (see Attacker.swift).
import CHeapStatistics
import Ensign
import EnsignControl

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

signal(SIGPIPE, SIG_IGN)
let arguments = CommandLine.arguments
switch (arguments.count, arguments.dropFirst().first) {
case (4, "connect-as"):
    guard let uid = UInt32(arguments[2]) else { exit(2) }
    exit(connectAs(uid, to: arguments[3]))
case (3, "lifecycle"):
    exit(lifecycle(runtimeDirectory: arguments[2]))
case (4, "heap"):
    exit(visitHeap(runtimeDirectory: arguments[2], visits: Int(arguments[3]) ?? 0))
case (4..., "plant-as"):
    guard let uid = UInt32(arguments[2]), let gid = UInt32(arguments[3]) else { exit(2) }
    exit(plantAs(uid, group: gid, steps: arguments[4...]))
case (5, "listen-as"):
    guard let uid = UInt32(arguments[2]), let gid = UInt32(arguments[3]) else { exit(2) }
    exit(listenAs(uid, group: gid, at: arguments[4]))
default:
    print(
        "usage: EnsignControlProbe connect-as UID SOCKET | lifecycle RUNTIME_DIR | heap RUNTIME_DIR COUNT"
            + " | plant-as UID GID STEP... | listen-as UID GID SOCKET")
    exit(2)
}

func connectAs(_ uid: UInt32, to path: String) -> Int32 {
    guard dropPrivileges(to: uid, group: uid) else {
        print("cannot drop to uid \(uid): errno \(errno)")
        return 4
    }
    let descriptor = makeStreamSocket()
    guard withSocketAddress(path, { connect(descriptor, $0, $1) }) == 0 else {
        print("connect failed: errno \(errno)")
        return 3
    }
    let hello = Array("{\"id\":1,\"op\":\"hello\"}\n".utf8)
    _ = hello.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !received.contains(0x0A) {
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count <= 0 { break }
        received += buffer[..<count]
    }
    print(String(decoding: received.prefix { $0 != 0x0A }, as: UTF8.self))
    return received.isEmpty ? 3 : 0
}

func lifecycle(runtimeDirectory: String) -> Int32 {
    let context = AppContext(values: ["app.enabled": false, "app.size": 3])
    do {
        // A first server brings up whatever the runtime starts lazily (the thread sanitizer's
        // own thread, for one); the counts compare the steady state around the second.
        _ = try exercise(context, runtimeDirectory: runtimeDirectory)
        let descriptorsBefore = count("/proc/self/fd")
        let threadsBefore = threadNames().count
        let (socketPath, serverThreads) = try exercise(context, runtimeDirectory: runtimeDirectory)
        print(
            "{\"descriptorsBefore\":\(descriptorsBefore),\"descriptorsAfter\":\(count("/proc/self/fd")),"
                + "\"threadsBefore\":\(threadsBefore),\"threadsAfter\":\(threadNames().count),"
                + "\"serverThreadsWhileRunning\":\(serverThreads),"
                + "\"serverThreadsAfter\":\(threadNames().count { $0.hasPrefix("ensign-") }),"
                + "\"socketRemoved\":\(access(socketPath, F_OK) != 0)}")
        return 0
    } catch {
        print("{\"error\": \"\(error)\"}")
        return 1
    }
}

/// Starts a server, uses it from three clients (one watching, one sending a bad request, one
/// leaving at once), and stops it with the clients still connected: the server must close
/// its ends itself. Returns the socket path and how many `ensign-*` threads ran meanwhile.
func exercise(_ context: AppContext, runtimeDirectory: String) throws -> (String, Int) {
    let server = try ControlServer.start(
        context: context, options: ControlServerOptions(appName: "probe", runtimeDirectory: runtimeDirectory))
    let client = try ControlClient.connect(to: .socket(server.socketPath))
    let watch = try client.watch(keys: ["app.enabled"])
    try client.toggle("app.enabled")
    _ = try watch.next(timeout: .seconds(10))
    let garbage = try ControlClient.connect(to: .socket(server.socketPath))
    _ = try? garbage.send(.get(key: "no.such.key"))
    let leaver = try ControlClient.connect(to: .socket(server.socketPath))
    leaver.close()
    let serverThreads = threadNames().count { $0.hasPrefix("ensign-") }
    server.stop()
    watch.close()
    client.close()
    garbage.close()
    return (server.socketPath, serverThreads)
}

/// The names of this process's threads.
func threadNames() -> [String] {
    guard let stream = opendir("/proc/self/task") else { return [] }
    defer { closedir(stream) }
    var names: [String] = []
    while let entry = readdir(stream) {
        let task = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        guard !task.hasPrefix("."), let file = fopen("/proc/self/task/\(task)/comm", "r") else { continue }
        var buffer = [CChar](repeating: 0, count: 64)
        if fgets(&buffer, 64, file) != nil {
            names.append(
                String(decoding: buffer.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        fclose(file)
    }
    return names
}

/// The number of entries in a /proc directory.
func count(_ directory: String) -> Int {
    guard let stream = opendir(directory) else { return -1 }
    defer { closedir(stream) }
    var entries = 0
    while let entry = readdir(stream) {
        let isDot = withUnsafeBytes(of: entry.pointee.d_name) { $0.first == 0x2E }
        if !isDot { entries += 1 }
    }
    return entries
}

/// The heap that visiting clients leave behind in the server: each visit asks for the status,
/// opens a watch, receives the change a resident writer makes, and closes both. The heap is
/// read once the server has closed its ends (it counts connections), after a warm-up that fills
/// the bounded stores (the change log).
func visitHeap(runtimeDirectory: String, visits: Int) -> Int32 {
    let context = AppContext(values: ["app.enabled": false, "app.size": 3])
    do {
        var options = ControlServerOptions(appName: "probe", runtimeDirectory: runtimeDirectory)
        options.log = { _ in }
        let server = try ControlServer.start(context: context, options: options)
        defer { server.stop() }
        let writer = try ControlClient.connect(to: .socket(server.socketPath))
        var size = 3
        func visit() throws {
            let client = try ControlClient.connect(to: .socket(server.socketPath))
            _ = try client.status()
            let watch = try client.watch(keys: ["app.size"])
            size += 1
            try writer.set("app.size", to: .int(size))
            _ = try watch.next(timeout: .seconds(10))
            watch.close()
            client.close()
        }
        func settledHeap() -> Int64 {
            while server.connectionCount > 1 { usleep(1_000) }
            return ensign_heap_in_use()
        }
        for _ in 0..<300 { try visit() }
        let before = settledHeap()
        for _ in 0..<visits { try visit() }
        let after = settledHeap()
        print("heap before \(before) after \(after)")
        print("retained \((after - before) / Int64(max(visits, 1))) per visit")
        return 0
    } catch {
        print("error: \(error)")
        return 1
    }
}
