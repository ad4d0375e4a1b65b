/// The limits a server runs with, worked out when it starts from its options and the process's
/// descriptor limit: what the start-up line, `/readyz` and `ensign status` report.
///
/// ```swift
/// print(server.limits)  // 18510 connections (13882 event streams), 20000 descriptors, 2 worker threads
/// ```
public struct OFREPServerLimits: Sendable, Hashable, CustomStringConvertible {
    /// The process's soft descriptor limit in force (after raising it, when the options ask).
    public var descriptors: Int
    /// The hard descriptor limit, which the soft one cannot pass.
    public var descriptorHardLimit: Int
    /// The most connections open at once, event streams included.
    public var connections: Int
    /// The most event streams open at once.
    public var eventStreams: Int
    /// The threads serving connections.
    public var workerThreads: Int

    /// Descriptors kept for everything else in the process: files, the control socket, etcd,
    /// the management port, watchers.
    static let reservedDescriptors = 256

    /// The limits `options` give with `descriptors` open descriptors allowed.
    init(options: OFREPServerOptions, descriptors: Int, descriptorHardLimit: Int) {
        self.descriptors = descriptors
        self.descriptorHardLimit = descriptorHardLimit
        // Fifteen sixteenths of what is left: the rest holds connections the server has cut
        // and libmicrohttpd has yet to close.
        let available = max(16, (descriptors - Self.reservedDescriptors) * 15 / 16)
        connections = max(2, min(options.connectionLimit ?? 65_536, available))
        eventStreams = max(1, min(options.eventStreamLimit ?? min(connections * 3 / 4, 50_000), connections - 1))
        workerThreads = max(1, options.workerThreads)
    }

    /// The limit libmicrohttpd itself keeps: the connection limit and the room for cut connections.
    var connectionsWithCutRoom: Int { max(connections + 16, (descriptors - Self.reservedDescriptors)) }

    /// `18510 connections (13882 event streams), 20000 descriptors, 2 worker threads`.
    public var description: String {
        "\(connections) connections (\(eventStreams) event streams), \(descriptors) descriptors,"
            + " \(workerThreads) worker threads"
    }
}
