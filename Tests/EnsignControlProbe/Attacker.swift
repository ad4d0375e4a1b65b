// The attacker's side of the security suite: a process that drops to another user and then
// prepares files, directories, links and a listening socket as that user, so that what root
// meets afterwards really belongs to someone else.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Leaves root for `uid`:`gid` with no supplementary groups, for good (the real, effective and
/// saved ids all change). Returns whether it worked.
func dropPrivileges(to uid: UInt32, group gid: UInt32) -> Bool {
    setgroups(0, nil) == 0 && setgid(gid) == 0 && setuid(uid) == 0 && getuid() == uid && geteuid() == uid
        && setuid(0) != 0
}

/// `plant-as UID GID STEP...`: creates, as UID, each thing a step names, in order:
///
///   dir PATH MODE           a directory with exactly MODE (octal)
///   file PATH MODE TEXT     a new file (never an existing one, never through a link) holding TEXT
///   link PATH TARGET        a symbolic link to TARGET
///
/// Exit status 0 once every step is done; 5 at the first step that fails (it says which and
/// why); 4 when privileges could not be dropped; 2 for steps it does not understand.
func plantAs(_ uid: UInt32, group gid: UInt32, steps: ArraySlice<String>) -> Int32 {
    guard dropPrivileges(to: uid, group: gid) else {
        print("cannot drop to uid \(uid): errno \(errno)")
        return 4
    }
    var steps = steps
    var planted = 0
    while let verb = steps.popFirst() {
        let arity = ["dir": 2, "file": 3, "link": 2][verb]
        guard let arity, steps.count >= arity else {
            print("unknown or incomplete step '\(verb)'")
            return 2
        }
        let operands = Array(steps.prefix(arity))
        steps = steps.dropFirst(arity)
        let failed: Bool
        switch verb {
        case "dir":
            let mode = mode_t(operands[1], radix: 8) ?? 0o700
            failed = mkdir(operands[0], 0o700) != 0 || chmod(operands[0], mode) != 0
        case "file":
            let mode = mode_t(operands[1], radix: 8) ?? 0o600
            let descriptor = open(operands[0], O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            let bytes = Array(operands[2].utf8)
            failed =
                descriptor < 0 || bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } != bytes.count
                || fchmod(descriptor, mode) != 0
            if descriptor >= 0 { close(descriptor) }
        default:
            failed = symlink(operands[1], operands[0]) != 0
        }
        guard !failed else {
            print("\(verb) \(operands[0]) failed: \(String(cString: strerror(errno)))")
            return 5
        }
        planted += 1
    }
    print("planted \(planted)")
    return 0
}

/// `listen-as UID GID SOCKET`: listens, as UID, on a socket anyone may connect to, prints
/// `listening`, and then reports each connection's first line as `connection: LINE` until a
/// connection sends `sentinel`. Connections are accepted in the order they were made, so
/// `sentinel after N connections` counts every connection made before the sentinel's. Gives
/// up (exit status 6) after a minute without a sentinel, so it never outlives its test.
func listenAs(_ uid: UInt32, group gid: UInt32, at path: String) -> Int32 {
    guard dropPrivileges(to: uid, group: gid) else {
        print("cannot drop to uid \(uid): errno \(errno)")
        return 4
    }
    let listener = makeStreamSocket()
    let bound = withSocketAddress(path) { bind(listener, $0, $1) }
    guard bound == 0, listen(listener, 16) == 0, chmod(path, 0o777) == 0 else {
        print("cannot listen on \(path): \(String(cString: strerror(errno)))")
        return 5
    }
    print("listening")
    fflush(nil)  // every stream: the test waits for this line
    var connections = 0
    while true {
        var ready = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        guard poll(&ready, 1, 60_000) == 1 else { return 6 }
        let connection = accept(listener, nil, nil)
        guard connection >= 0 else { continue }
        let line = firstLine(of: connection)
        close(connection)
        if line == "sentinel" { break }
        connections += 1
        print("connection: \(line)")
    }
    print("sentinel after \(connections) connections")
    return 0
}

/// What a connection sends up to its first newline (or the end, or five quiet seconds).
func firstLine(of connection: Int32) -> String {
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !received.contains(0x0A) {
        var ready = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
        guard poll(&ready, 1, 5_000) == 1 else { break }
        let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
        if count <= 0 { break }
        received += buffer[..<count]
    }
    return String(decoding: received.prefix { $0 != 0x0A }, as: UTF8.self)
}

/// A new Unix stream socket.
func makeStreamSocket() -> Int32 {
    #if os(Linux)
        socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    #else
        socket(AF_UNIX, SOCK_STREAM, 0)
    #endif
}

/// Calls `body` with the address of the Unix socket at `path`.
func withSocketAddress(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        let bytes = Array(path.utf8.prefix(raw.count - 1))
        raw.copyBytes(from: bytes)
        raw[bytes.count] = 0
    }
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
}
