import EnsignHTTP

/// How to reach an etcd cluster and which keys hold the fleet layer.
///
/// ```swift
/// import Foundation
///
/// var configuration = EtcdConfiguration(
///     endpoints: ["http://10.0.0.1:2379", "http://10.0.0.2:2379", "http://10.0.0.3:2379"],
///     keyPrefix: "/myapp/flags/")
/// let password = try String(contentsOfFile: "/run/secrets/etcd-password", encoding: .utf8)
/// configuration.credentials = EtcdCredentials(username: "myapp", password: password)
/// let fleet = try EtcdFleetSource.start(context: context, configuration: configuration)
/// ```
///
/// The etcd key `keyPrefix + flagKey` holds the value of `flagKey`:
/// `/myapp/flags/beneficiaries.pageSize` → `50`.
///
/// **TLS.** `https://` endpoints are spoken to over TLS (libcurl with OpenSSL on Linux). The
/// members' certificates are checked against the system's trust store, or against ``caFile``
/// (a cluster's own authority, as etcd deployments usually have); a cluster started with
/// `--client-cert-auth` gets ``certificateFile`` and ``keyFile``. The key stays in its file:
/// only its path is configured. An https endpoint is never spoken to in clear, and redirects
/// are never followed.
///
/// ```swift
/// var configuration = EtcdConfiguration(endpoints: ["https://etcd-0.etcd:2379"], keyPrefix: "/myapp/flags/")
/// configuration.caFile = "/etc/etcd/pki/ca.crt"
/// configuration.certificateFile = "/etc/etcd/pki/myapp.crt"
/// configuration.keyFile = "/etc/etcd/pki/myapp.key"
/// ```
///
/// **Authentication.** With ``credentials`` set, the client calls etcd's
/// `/v3/auth/authenticate` on each endpoint and sends the token it gets with every request
/// (etcd's "simple" tokens are per member), authenticating again when etcd says the token
/// expired. Give the user read access to the prefix for a fleet source, and write access
/// for `ensign fleet set`.
public struct EtcdConfiguration: Sendable, Hashable {
    /// The cluster's client URLs, tried in order and in turn after failures.
    public var endpoints: [String]
    /// The prefix of every fleet key, usually ending in `/`: `/myapp/flags/`.
    public var keyPrefix: String
    /// How long connecting to one endpoint may take before trying the next.
    public var dialTimeout: Duration = .seconds(2)
    /// How long a request (not a watch) may take, from connecting to the last byte.
    public var requestTimeout: Duration = .seconds(5)
    /// A user name and password, when the cluster has authentication enabled.
    public var credentials: EtcdCredentials?
    /// The delays between reconnection attempts.
    public var reconnectBackoff = EtcdBackoff()
    /// How often a watch checks that its member still answers (`nil`: never), as etcd's own
    /// client does with `--keepalive-time`: a member that froze, or a host cut off without a
    /// reset, leaves the watch open and silent, and the source would never hear of a change.
    public var keepAliveInterval: Duration? = .seconds(2)
    /// How long that check may go unanswered before the source moves to another member
    /// (etcd's `--keepalive-timeout`).
    public var keepAliveTimeout: Duration = .seconds(3)
    /// A PEM file of the certificate authorities to trust for `https://` endpoints (`nil`: the
    /// system's trust store); etcdctl's `--cacert`.
    public var caFile: String?
    /// A PEM client certificate, for a cluster started with `--client-cert-auth`; etcdctl's `--cert`.
    public var certificateFile: String?
    /// The client certificate's private key, a PEM file; etcdctl's `--key`.
    public var keyFile: String?

    /// Creates a configuration with a 2-second dial timeout, a 5-second request timeout, a
    /// watch checked every 2 seconds and given up after 3 without an answer, no credentials,
    /// no TLS files and the default backoff.
    public init(endpoints: [String], keyPrefix: String) {
        self.endpoints = endpoints
        self.keyPrefix = keyPrefix
    }

    /// The endpoints in a comma-separated list (`http://a:2379,http://b:2379`), as command-line
    /// options give them.
    public static func endpoints(fromList list: String) -> [String] {
        list.split(separator: ",").map(\.trimmingSpaces).filter { !$0.isEmpty }
    }
}

/// A user name and password for etcd's authentication.
public struct EtcdCredentials: Sendable, Hashable {
    /// The etcd user.
    public var username: String
    /// Its password.
    public var password: String

    /// Creates credentials.
    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }
}

/// Exponential backoff with jitter between reconnection attempts: the delay doubles after
/// each consecutive failure, from ``initial`` up to ``maximum``, and each delay is shortened
/// by a random part of up to ``jitter`` of itself, so a fleet that lost its cluster does not
/// come back in lockstep.
public struct EtcdBackoff: Sendable, Hashable {
    /// The delay after the first failure.
    public var initial: Duration
    /// The longest delay.
    public var maximum: Duration
    /// How much of each delay may be randomly taken off, from 0 (none) to 1 (all).
    public var jitter: Double

    /// Creates a backoff; the defaults are 50 ms, 2 s and 0.5.
    public init(initial: Duration = .milliseconds(50), maximum: Duration = .seconds(2), jitter: Double = 0.5) {
        self.initial = initial
        self.maximum = maximum
        self.jitter = jitter
    }

    /// The delay before the next attempt after `failures` consecutive failures (1 or more).
    public func delay(afterFailures failures: Int) -> Duration {
        var delay = initial
        for _ in 1..<max(1, failures) where delay < maximum { delay *= 2 }
        delay = min(delay, maximum)
        let cut = min(max(jitter, 0), 1) * Double.random(in: 0...1)
        return delay * (1 - cut)
    }
}
