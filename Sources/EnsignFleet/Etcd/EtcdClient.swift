import Ensign
import EnsignHTTP
import EnsignSupport

/// A small client for etcd's v3 JSON gateway: reads, writes and compare-and-swap writes of
/// the keys under a prefix, failing over across the cluster's endpoints. `ensign fleet` uses
/// it; apps use ``EtcdFleetSource``.
///
/// ```swift
/// let client = try EtcdClient(configuration: EtcdConfiguration(endpoints: ["http://127.0.0.1:2379"], keyPrefix: "/myapp/flags/"))
/// let revision = try client.put("/myapp/flags/beneficiaries.pageSize", value: Array("50".utf8))
/// ```
///
/// Each call is blocking and runs within the configuration's request timeout per endpoint.
/// A read that fails on one endpoint is tried on the next; a write is tried on the next only
/// when it certainly was not applied (the connection could not be made, or the member had no
/// leader), so a compare-and-swap never reports a conflict with its own earlier attempt.
public struct EtcdClient: Sendable {
    /// The configuration, endpoints checked.
    public let configuration: EtcdConfiguration
    let endpoints: [EtcdEndpoint]
    /// The endpoint that answered last, tried first next time.
    private let preferred = LockedState(0)

    /// Creates a client; no connection is made until the first call.
    ///
    /// - Throws: ``EtcdError/invalidConfiguration(_:)`` when there are no endpoints, one is
    ///   not an `http[s]://host:port` URL, the prefix is empty, a TLS file cannot be read, a
    ///   client certificate comes without its key (or the other way round), or TLS files are
    ///   given for endpoints that are all `http://`.
    public init(configuration: EtcdConfiguration) throws(EtcdError) {
        try self.init(configuration: configuration, cancellation: nil)
    }

    init(configuration: EtcdConfiguration, cancellation: Cancellation?) throws(EtcdError) {
        guard !configuration.endpoints.isEmpty else { throw .invalidConfiguration("no endpoints are given") }
        guard !configuration.keyPrefix.isEmpty else {
            throw .invalidConfiguration("the key prefix is empty; use one such as /myapp/flags/")
        }
        let tokens = TokenCache()
        let tls = try configuration.tlsFiles()
        var endpoints: [EtcdEndpoint] = []
        for text in configuration.endpoints {
            do {
                let url = try HTTPEndpoint(text)
                endpoints.append(
                    EtcdEndpoint(
                        url: url, configuration: configuration, tls: tls, cancellation: cancellation, tokens: tokens))
            } catch {
                throw .invalidConfiguration("\(error)")
            }
        }
        if tls != nil, !endpoints.contains(where: { $0.url.scheme == .https }) {
            throw .invalidConfiguration(
                "TLS files are given but every endpoint is http://; use https:// endpoints, or drop the files")
        }
        self.configuration = configuration
        self.endpoints = endpoints
    }

    /// The full etcd key of a flag key: the prefix, then the key.
    public func etcdKey(forFlagKey key: String) -> String { configuration.keyPrefix + key }

    /// Every key under the configured prefix, at the latest revision.
    public func rangeOfPrefix() throws(EtcdError) -> EtcdRange {
        let prefix = configuration.keyPrefix
        return try withFailover(isIdempotent: true) { endpoint throws(EtcdError) in
            try endpoint.range(prefix, rangeEnd: EtcdKeyRange.end(ofPrefix: prefix))
        }
    }

    /// The key, or `nil` when it does not exist, and the store revision read at.
    public func get(_ key: String) throws(EtcdError) -> (keyValue: EtcdKeyValue?, revision: Int64) {
        let range = try withFailover(isIdempotent: true) { endpoint throws(EtcdError) in
            try endpoint.range(key, rangeEnd: nil)
        }
        return (range.keyValues.first, range.revision)
    }

    /// Writes `value` to `key`; returns the store revision of the write.
    @discardableResult
    public func put(_ key: String, value: [UInt8]) throws(EtcdError) -> Int64 {
        try withFailover(isIdempotent: false) { endpoint throws(EtcdError) in try endpoint.put(key, value: value) }
    }

    /// Deletes `key`; returns the store revision and how many keys were deleted (0 or 1).
    @discardableResult
    public func delete(_ key: String) throws(EtcdError) -> (revision: Int64, deleted: Int64) {
        try withFailover(isIdempotent: false) { endpoint throws(EtcdError) in try endpoint.delete(key, rangeEnd: nil) }
    }

    /// Deletes every key under the configured prefix; returns the store revision and how many.
    @discardableResult
    public func deletePrefix() throws(EtcdError) -> (revision: Int64, deleted: Int64) {
        let prefix = configuration.keyPrefix
        return try withFailover(isIdempotent: false) { endpoint throws(EtcdError) in
            try endpoint.delete(prefix, rangeEnd: EtcdKeyRange.end(ofPrefix: prefix))
        }
    }

    /// Writes `value` to `key` (or deletes it when `value` is `nil`) only if the key's mod
    /// revision is still `modRevision` (0: only if the key does not exist), atomically.
    public func write(_ key: String, value: [UInt8]?, ifModRevision modRevision: Int64) throws(EtcdError)
        -> EtcdComparison
    {
        try withFailover(isIdempotent: false) { endpoint throws(EtcdError) in
            try endpoint.write(key, value: value, ifModRevision: modRevision)
        }
    }

    /// Discards the history before `revision` (etcd's compaction), so watches cannot resume
    /// from an older revision.
    public func compact(revision: Int64) throws(EtcdError) {
        try withFailover(isIdempotent: true) { endpoint throws(EtcdError) in try endpoint.compact(revision: revision) }
    }

    /// Runs `operation` on the preferred endpoint, then on the others in turn while it fails
    /// in a way another endpoint may not.
    private func withFailover<Result>(
        isIdempotent: Bool, _ operation: (EtcdEndpoint) throws(EtcdError) -> Result
    ) throws(EtcdError) -> Result {
        let start = preferred.withLock { $0 }
        var attempts: [String] = []
        for offset in 0..<endpoints.count {
            let index = (start + offset) % endpoints.count
            do {
                let result = try operation(endpoints[index])
                preferred.withLock { $0 = index }
                return result
            } catch {
                guard error.isRetryableElsewhere, isIdempotent || error.wasCertainlyNotApplied else { throw error }
                if case .unreachable(let reasons) = error { attempts += reasons } else { attempts.append("\(error)") }
            }
        }
        throw .unreachable(attempts)
    }
}

extension EtcdConfiguration {
    /// The TLS files for the HTTP client, checked: each readable, a certificate with its key.
    /// `nil` when none is given.
    func tlsFiles() throws(EtcdError) -> HTTPTLSFiles? {
        guard caFile != nil || certificateFile != nil || keyFile != nil else { return nil }
        let files = HTTPTLSFiles(certificateAuthorities: caFile, certificate: certificateFile, key: keyFile)
        if let problem = files.problem { throw .invalidConfiguration(problem) }
        return files
    }
}

extension EtcdError {
    /// Whether the request certainly did not reach the state machine: the connection could
    /// not be made, or the member refused it for want of a leader. (The reasons of
    /// `unreachable` are `HTTPError` descriptions, made in `EtcdEndpoint.transportError`.)
    var wasCertainlyNotApplied: Bool {
        switch self {
        case .unreachable(let reasons):
            // A failed TLS handshake sent nothing etcd acts on.
            return reasons.allSatisfy {
                $0.contains("cannot connect") || $0.contains("cannot resolve")
                    || $0.contains("TLS with the server failed")
            }
        case .server(_, _, let message): return message.contains("no leader")
        default: return false
        }
    }
}
